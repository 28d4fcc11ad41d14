"""Validate agx's SBOMs with the reference JSON Schema validator (PyPI `jsonschema`) against
the official CycloneDX 1.6 and SPDX 2.3 schemas in tests/data/sbom-schemas/.

    sbom_validate.py cyclonedx|spdx FILE
"""

import json
import pathlib
import sys

import jsonschema
import referencing

SCHEMAS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "sbom-schemas"


def load(path):
    return json.loads(path.read_text())


def main():
    kind, file = sys.argv[1:3]
    document = load(pathlib.Path(file))
    if kind == "cyclonedx":
        folder = SCHEMAS / "cyclonedx-1.6"
        schema = load(folder / "bom-1.6.schema.json")
        resources = [
            (load(folder / name)["$id"], referencing.Resource.from_contents(load(folder / name)))
            for name in ("spdx.schema.json", "jsf-0.82.schema.json")
        ]
    else:
        schema = load(SCHEMAS / "spdx-2.3" / "spdx-schema.json")
        resources = []
    registry = referencing.Registry().with_resources(resources)
    cls = jsonschema.validators.validator_for(schema)
    validator = cls(schema, registry=registry, format_checker=cls.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    for error in errors:
        print(f"{file}: {'/'.join(map(str, error.path))}: {error.message}", file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"{file}: valid {kind}")


if __name__ == "__main__":
    main()
