#!/usr/bin/python3
# validate-json.py SCHEMA [FILE]: validates the JSON document in FILE (or on
# standard input) against SCHEMA, one of docs/schemas/*.schema.json, whose
# references to the other schemas there are resolved locally. Prints the
# first error and exits 1 when it does not validate.
import json
import os
import sys

import jsonschema

schema_path = sys.argv[1]
doc = json.load(open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin)
store = {}
for name in os.listdir(os.path.dirname(os.path.abspath(schema_path))):
    if name.endswith(".schema.json"):
        s = json.load(open(os.path.join(os.path.dirname(os.path.abspath(schema_path)), name)))
        store[s["$id"]] = s
schema = json.load(open(schema_path))
resolver = jsonschema.RefResolver(schema["$id"], schema, store=store)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema, resolver=resolver).iter_errors(doc), key=str)
if errors:
    e = errors[0]
    print("%s: %s at %s" % (os.path.basename(schema_path), e.message, list(e.absolute_path)))
    sys.exit(1)
