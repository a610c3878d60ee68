"""Checks docs/ci.md's pre-commit section against .pre-commit-hooks.yaml:
the example's rev is a tag (vX.Y.Z), `pre-commit install` is mentioned, and
each file type of the hook's `files` pattern is named as `.ext`.
usage: check_precommit_docs.py docs/ci.md .pre-commit-hooks.yaml"""
import re
import sys

import yaml

text = open(sys.argv[1]).read()
section = text[text.index("## pre-commit"):]
hook = yaml.safe_load(open(sys.argv[2]))[0]
configs = [yaml.safe_load(b) for b in
           re.findall(r"^```yaml\n(.*?)^```", section, re.S | re.M)]
rev = configs[0]["repos"][0]["rev"]
print("rev %s %s" % (rev, "is a tag" if re.fullmatch(r"v\d+\.\d+\.\d+", rev)
                     else "is NOT a tag"))
print("pre-commit install: %s" % ("mentioned" if "`pre-commit install`" in section
                                  else "MISSING"))
types = re.fullmatch(r"\\\.\(([a-z|]+)\)\$", hook["files"]).group(1).split("|")
missing = [t for t in types if "`.%s`" % t not in section]
print("file types %s: %s" % (" ".join(types), "all named" if not missing
                             else "MISSING " + " ".join(missing)))
