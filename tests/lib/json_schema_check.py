#!/usr/bin/env python3
# json_schema_check.py - checks e2layout --json output against help/schema/:
# each line must be strict UTF-8 and one JSON document, with no key twice
# in an object (Python would keep the last one silently), valid against
# envelope.json, and a non-null "result" valid against
# result/NAME.json (NAME the request's name, aliases resolved through
# the "help" document given).  Usage:
#   json_schema_check.py SCHEMA_DIR HELP_JSON OUTPUT...
# Prints one line per problem; exits 1 when there is any, 0 otherwise.
import json
import os
import sys

import jsonschema


class DuplicateKey(ValueError):
    pass


def no_duplicates(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise DuplicateKey("key %r twice in one object" % k)
        d[k] = v
    return d


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main():
    sdir, help_json = sys.argv[1], sys.argv[2]
    Validator = jsonschema.Draft202012Validator
    env = load(os.path.join(sdir, "envelope.json"))
    Validator.check_schema(env)
    with open(help_json, "rb") as f:
        names = {}
        for c in json.loads(f.read().decode("utf-8"))["result"]["commands"]:
            names[c["name"]] = c["name"]
            for a in c["aliases"]:
                names[a] = c["name"]
    bad = []
    schemas = {}
    for fn in sorted(os.listdir(os.path.join(sdir, "result"))):
        name = fn[:-5]
        if not fn.endswith(".json") or names.get(name) != name:
            bad.append("result/%s: no request of that name" % fn)
            continue
        schemas[name] = load(os.path.join(sdir, "result", fn))
        Validator.check_schema(schemas[name])
    seen = 0
    for out in sys.argv[3:]:
        with open(out, "rb") as f:
            raw = f.read()
        for n, line in enumerate(raw.splitlines(), 1):
            where = "%s:%d" % (os.path.basename(out), n)
            seen += 1
            try:
                doc = json.loads(line.decode("utf-8"),
                                 object_pairs_hook=no_duplicates)
            except (UnicodeDecodeError, ValueError) as e:
                bad.append("%s: not UTF-8 JSON: %s" % (where, e))
                continue
            for e in Validator(env).iter_errors(doc):
                bad.append("%s: envelope: %s at %s" %
                           (where, e.message, list(e.absolute_path)))
            if not isinstance(doc, dict) or doc.get("result") is None:
                continue
            name = names.get(doc["command"])
            if name not in schemas:
                bad.append("%s: %s has a result but no result/%s.json" %
                           (where, doc["command"], name))
                continue
            for e in Validator(schemas[name]).iter_errors(doc["result"]):
                bad.append("%s: %s: %s at %s" % (where, name, e.message,
                                                 list(e.absolute_path)))
    for b in bad[:40]:
        print(b)
    if not seen:
        print("no documents to check")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
