#!/usr/bin/env python3
"""Validates JSON documents against one of the schemas in this folder.

    python3 docs/schema/validate.py SCHEMA FILE...     (SCHEMA: standings, score-event, link-message)

A FILE holding a JSON array is validated item by item when the schema is not for an array.
Exit status 0 when every document is valid; 1 naming each invalid one and why. Needs Python's
jsonschema (Debian: apt-get install python3-jsonschema; elsewhere: pip install jsonschema).
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate.py needs Python's jsonschema: apt-get install python3-jsonschema (Debian) or pip install jsonschema")

HERE = pathlib.Path(__file__).resolve().parent


def load_schemas():
    schemas = {}
    for path in HERE.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        schemas[path.name] = schema
    return schemas


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schemas = load_schemas()
    name = argv[1] if argv[1].endswith(".schema.json") else argv[1] + ".schema.json"
    if name not in schemas:
        print(f"no schema {name}; have: {', '.join(sorted(schemas))}", file=sys.stderr)
        return 2
    schema = schemas[name]
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    try:
        # jsonschema 4.18 and later: the referencing library resolves $refs between the files.
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in schemas.values())
        validator = validator_class(schema, registry=registry)
    except ImportError:
        # Older jsonschema (Debian 12 ships 4.10): a RefResolver with every schema in its store.
        store = {s["$id"]: s for s in schemas.values()}
        resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
        validator = validator_class(schema, resolver=resolver)
    failures = 0
    for file in argv[2:]:
        document = json.loads(pathlib.Path(file).read_text())
        items = document if isinstance(document, list) else [document]
        for index, item in enumerate(items):
            for error in validator.iter_errors(item):
                failures += 1
                where = "/".join(str(p) for p in error.absolute_path) or "(top)"
                print(f"{file}[{index}] at {where}: {error.message}")
    return 1 if failures else 0


if __name__ == "__main__":
    import warnings
    warnings.simplefilter("ignore", DeprecationWarning)
    sys.exit(main(sys.argv))
