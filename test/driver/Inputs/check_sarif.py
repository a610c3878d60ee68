#!/usr/bin/env python3
"""Validates a file against the official SARIF 2.1.0 JSON schema (vendored
in sarif-schema/), checks what GitHub code scanning reads on top of it, then
prints its rules and results one a line for FileCheck. Exits 1, naming the
first violation, when it is not valid."""
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "sarif-schema", "sarif-schema-2.1.0.json")


def fail(msg):
    print("SARIF INVALID: " + msg)
    sys.exit(1)


def need(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        fail("%s has no '%s'" % (where, key))
    if not isinstance(obj[key], kind):
        fail("%s.%s is not a %s" % (where, key, kind.__name__))
    return obj[key]


def validate_against_schema(log):
    try:
        import jsonschema
    except ImportError:
        fail("the jsonschema Python package is missing (scripts/setup.sh "
             "installs python3-jsonschema)")
    schema = json.load(open(SCHEMA))
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.path) or "log"
        fail("schema: %s: %s" % (where, e.message))


log = json.load(open(sys.argv[1]))
validate_against_schema(log)
if need(log, "version", str, "log") != "2.1.0":
    fail("version is not 2.1.0")
if "sarif-2.1.0" not in need(log, "$schema", str, "log"):
    fail("$schema is not the 2.1.0 schema")
runs = need(log, "runs", list, "log")
if len(runs) != 1:
    fail("expected one run")
for r, run in enumerate(runs):
    driver = need(need(run, "tool", dict, "run"), "driver", dict, "tool")
    print("tool: %s" % need(driver, "name", str, "driver"))
    rules = need(driver, "rules", list, "driver")
    ids = []
    for i, rule in enumerate(rules):
        rid = need(rule, "id", str, "rules[%d]" % i)
        text = need(need(rule, "shortDescription", dict, rid), "text", str, rid)
        ids.append(rid)
        print("rule: %s: %s" % (rid, text))
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        fail("rules are not unique and sorted")
    for i, res in enumerate(need(run, "results", list, "run")):
        where = "results[%d]" % i
        rid = need(res, "ruleId", str, where)
        if rid not in ids:
            fail("%s.ruleId %s is not a rule" % (where, rid))
        if "ruleIndex" in res and ids[res["ruleIndex"]] != rid:
            fail("%s.ruleIndex does not point at its rule" % where)
        level = need(res, "level", str, where)
        if level not in ("none", "note", "warning", "error"):
            fail("%s.level %s is not a SARIF level" % (where, level))
        text = need(need(res, "message", dict, where), "text", str, where)
        locs = need(res, "locations", list, where)
        if not locs:
            fail("%s has no location" % where)
        phys = need(locs[0], "physicalLocation", dict, where)
        uri = need(need(phys, "artifactLocation", dict, where), "uri", str, where)
        region = need(phys, "region", dict, where)
        line = need(region, "startLine", int, where)
        col = need(region, "startColumn", int, where)
        if line < 1 or col < 1:
            fail("%s region is not 1-based" % where)
        related = len(res.get("relatedLocations", []))
        print("result: %s %s %s:%d:%d %s (%d related)" %
              (rid, level, uri, line, col, text, related))
print("SARIF OK")
