#!/usr/bin/env python3
"""Extracts the fenced code blocks of one language from a Markdown file and
checks that each parses (yaml, json), printing what each holds for
FileCheck. Exits 1 on the first block that does not parse.

usage: check_doc_blocks.py FILE.md yaml|json"""
import json
import re
import sys

import yaml

path, lang = sys.argv[1], sys.argv[2]
text = open(path).read()
blocks = re.findall(r"^```" + lang + r"\n(.*?)^```", text, re.S | re.M)
if not blocks:
    print("no %s block in %s" % (lang, path))
    sys.exit(1)
for i, block in enumerate(blocks):
    try:
        data = yaml.safe_load(block) if lang == "yaml" else json.loads(block)
    except Exception as e:  # noqa: BLE001 - report any parse error
        print("block %d: INVALID %s: %s" % (i, lang, e))
        sys.exit(1)
    if not isinstance(data, dict):
        print("block %d: not a mapping" % i)
        sys.exit(1)
    # YAML 1.1 (PyYAML) reads GitHub's `on:` key as True; GitHub reads "on".
    keys = sorted("on" if k is True else str(k) for k in data)
    print("block %d: valid %s, keys: %s" % (i, lang, " ".join(keys)))
    # What each CI service needs to run a job.
    if "jobs" in data:
        for name, job in data["jobs"].items():
            uses = [s.get("uses", "").split("@")[0] for s in job.get("steps", [])]
            print("github job %s: runs-on %s; steps use %s" % (
                name, job.get("runs-on"), " ".join(u for u in uses if u)))
    for name, job in data.items():
        if isinstance(job, dict) and "script" in job:
            print("gitlab job %s: image %s; %d script lines; artifacts %s" % (
                name, job.get("image"), len(job["script"]),
                " ".join(job.get("artifacts", {}).get("paths", []))))
    if "tasks" in data:
        for t in data["tasks"]:
            print("vscode task %s: %s" % (t["label"], t["problemMatcher"]["base"]))
print("%d %s blocks OK" % (len(blocks), lang))
