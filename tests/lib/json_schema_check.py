#!/usr/bin/env python3
# json_schema_check.py - checks e2layout --json output against help/schema/:
# each line must be strict UTF-8 and one JSON document, with no key twice
# in an object (Python would keep the last one silently), valid against
# envelope.json, and a non-null "result" valid against result/NAME.json
# (NAME the request's name, aliases resolved through the "help" document
# given).  Schemas refer to each other by $id (defs.json).  Usage:
#   json_schema_check.py [OPTIONS] SCHEMA_DIR HELP_JSON OUTPUT...
#   --registry       also check the registry against the schemas: every
#                    request that declares a JSON result (CMD_JSON, "help"'s
#                    json_result) has result/NAME.json, every other one is
#                    in no_result.txt with its reason, and no schema or
#                    line there names anything else
#   --cover          every result/NAME.json must validate at least one
#                    document of OUTPUT...
#   --elsewhere A,B  ... except these (validated by other tests)
#   --doc NAME       OUTPUT lines are whole documents of SCHEMA_DIR/NAME.json
#                    (lab check --json), not requests' envelopes
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
        return json.load(f, object_pairs_hook=no_duplicates)


def validators(schemas):
    """A function making a validator of a schema that resolves $ref to the
    others by $id (referencing on jsonschema >= 4.18, RefResolver before)."""
    V = jsonschema.Draft202012Validator
    by_id = {s["$id"]: s for s in schemas if "$id" in s}
    try:
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            (i, Resource.from_contents(s)) for i, s in by_id.items())
        return lambda s: V(s, registry=reg)
    except ImportError:
        return lambda s: V(s, resolver=jsonschema.RefResolver.from_schema(
            s, store=by_id))


def registry_check(sdir, commands, schemas, bad):
    reasons = {}
    path = os.path.join(sdir, "no_result.txt")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            name, _, why = line.strip().partition(" ")
            if not why.strip():
                bad.append("no_result.txt:%d: %s has no reason" % (n, name))
            if name in reasons:
                bad.append("no_result.txt:%d: %s twice" % (n, name))
            reasons[name] = why.strip()
    for c in commands:
        name, has = c["name"], c["json_result"]
        if has and name not in schemas:
            bad.append("%s declares a JSON result (CMD_JSON) but "
                       "result/%s.json does not exist" % (name, name))
        if has and name in reasons:
            bad.append("%s declares a JSON result (CMD_JSON) but "
                       "no_result.txt says it has none" % name)
        if not has and name in schemas:
            bad.append("result/%s.json: %s does not declare a JSON result "
                       "(CMD_JSON)" % (name, name))
        if not has and name not in reasons:
            bad.append("%s has no JSON result (no CMD_JSON): no_result.txt "
                       "must say why" % name)
    known = {c["name"] for c in commands}
    for name in reasons:
        if name not in known:
            bad.append("no_result.txt: no request named %s" % name)


def main():
    args = sys.argv[1:]
    registry = cover = False
    elsewhere, doc = set(), None
    while args and args[0].startswith("--"):
        a = args.pop(0)
        if a == "--registry":
            registry = True
        elif a == "--cover":
            cover = True
        elif a == "--elsewhere":
            elsewhere = set(args.pop(0).split(","))
        elif a == "--doc":
            doc = args.pop(0)
        else:
            print("unknown option %s" % a)
            return 2
    sdir, help_json, outputs = args[0], args[1], args[2:]
    V = jsonschema.Draft202012Validator
    bad = []
    env = load(os.path.join(sdir, "envelope.json"))
    shared = [load(os.path.join(sdir, fn)) for fn in sorted(os.listdir(sdir))
              if fn.endswith(".json")]
    with open(help_json, "rb") as f:
        commands = json.loads(f.read().decode("utf-8"))["result"]["commands"]
    names = {}
    for c in commands:
        names[c["name"]] = c["name"]
        for a in c["aliases"]:
            names[a] = c["name"]
    schemas = {}
    for fn in sorted(os.listdir(os.path.join(sdir, "result"))):
        name = fn[:-5]
        if not fn.endswith(".json") or names.get(name) != name:
            bad.append("result/%s: no request of that name" % fn)
            continue
        schemas[name] = load(os.path.join(sdir, "result", fn))
    for s in shared + list(schemas.values()):
        V.check_schema(s)
    make = validators(shared + list(schemas.values()))
    if registry:
        registry_check(sdir, commands, schemas, bad)
    check = {n: make(s) for n, s in schemas.items()}
    whole = make(load(os.path.join(sdir, doc + ".json"))) if doc else None
    envv = make(env)
    seen, used = 0, set()
    for out in outputs:
        with open(out, "rb") as f:
            raw = f.read()
        for n, line in enumerate(raw.splitlines(), 1):
            where = "%s:%d" % (os.path.basename(out), n)
            seen += 1
            try:
                d = json.loads(line.decode("utf-8"),
                               object_pairs_hook=no_duplicates)
            except (UnicodeDecodeError, ValueError) as e:
                bad.append("%s: not UTF-8 JSON: %s" % (where, e))
                continue
            if whole:
                for e in whole.iter_errors(d):
                    bad.append("%s: %s: %s at %s" % (where, doc, e.message,
                                                     list(e.absolute_path)))
                continue
            for e in envv.iter_errors(d):
                bad.append("%s: envelope: %s at %s" %
                           (where, e.message, list(e.absolute_path)))
            if not isinstance(d, dict) or d.get("result") is None:
                continue
            name = names.get(d["command"])
            if name not in schemas:
                bad.append("%s: %s has a result but no result/%s.json" %
                           (where, d["command"], name))
                continue
            errs = list(check[name].iter_errors(d["result"]))
            if not errs:
                used.add(name)
            for e in errs[:5]:
                bad.append("%s: %s %s: %s at %s" %
                           (where, name, " ".join(d["args"])[:60],
                            e.message[:300], list(e.absolute_path)))
    if cover:
        for name in sorted(set(schemas) - used - elsewhere):
            bad.append("result/%s.json: no document of %s was checked "
                       "against it" % (name, name))
    for b in bad[:40]:
        print(b)
    if len(bad) > 40:
        print("... and %d more" % (len(bad) - 40))
    if not seen:
        print("no documents to check")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
