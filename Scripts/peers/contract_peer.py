"""The exported contract as other languages use it: Python's jsonschema (draft 2020-12) judges
payloads against `eventgen json-schema`'s `$defs`, and a consumer that asyncapi-python's code
generator makes from `eventgen asyncapi`'s document reads and writes CloudEvents.

    python contract_peer.py agree SCHEMA.json < PAYLOADS
    python contract_peer.py consume ASYNCAPI.json WORK_FOLDER < CLOUDEVENTS

agree: PAYLOADS has one line per payload, `{"def": NAME, "payload": {...}}`. Each payload is
judged as it is, and so are changed copies of the first few of each definition: every top-level
property removed, replaced by a value of each JSON type, and, where the schema bounds it, set
just beyond a bound. Prints one line per judgement, tab-separated: `valid` or `invalid`, the
definition, what was changed (`original` for none), and the payload's JSON. Numbers are read
and written as decimals (simplejson), so every digit the Swift side wrote is judged and echoed.

consume: CLOUDEVENTS has one structured-mode CloudEvent (JSON) per line. The consumer (an
application and pydantic message models) is generated into WORK_FOLDER from ASYNCAPI.json; the
model of each event is the payload of the message whose `name` is the event's `type`.
Each event's data is validated into its model, then written back from the model as a new
CloudEvent with the same id and type, one line each, in order. A consumer that wants Decimal
fields exact reads JSON numbers as decimals, as this one does: pydantic reads JSON text's
numbers as doubles."""
import copy
import json
import enum
import importlib.util
import subprocess
import sys
import uuid
from decimal import Decimal
from pathlib import Path

import jsonschema
import simplejson

# Changed copies are made from this many payloads of each definition.
MUTATED_PER_DEFINITION = 3
# One value of each JSON type; the frozen-enum case is a string no enum declares.
REPLACEMENTS = [
    ("a string", "not-a-declared-case"),
    ("an integer", 12345),
    ("a fraction", Decimal("1.5")),
    ("true", True),
    ("null", None),
    ("an empty array", []),
    ("an empty object", {}),
]


def load(path):
    with open(path, encoding="utf-8") as file:
        return simplejson.load(file, use_decimal=True)


def dumps(value):
    return simplejson.dumps(value, use_decimal=True, ensure_ascii=False, separators=(",", ":"), default=plain)


def plain(value):
    """The JSON of what pydantic's Python mode leaves as objects."""
    if isinstance(value, uuid.UUID):
        return str(value).upper()
    if isinstance(value, enum.Enum):
        return value.value
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def resolved(schema, definitions):
    """A property's schema with its `$ref` followed and a `[T, null]` union taken as T."""
    while True:
        if "$ref" in schema:
            schema = definitions[schema["$ref"].rsplit("/", 1)[-1]]
        elif "anyOf" in schema and any(option.get("type") == "null" for option in schema["anyOf"]):
            others = [option for option in schema["anyOf"] if option.get("type") != "null"]
            if len(others) != 1:
                return schema
            schema = others[0]
        else:
            return schema


def beyond_bounds(schema):
    """Numbers just outside the bounds a property's schema states."""
    values = []
    for key, step in (("maximum", 1), ("minimum", -1)):
        if key in schema and schema.get("type") == "integer":
            values.append((f"{key} {step:+d}", schema[key] + step))
    for key, factor in (("exclusiveMaximum", 10), ("exclusiveMinimum", 10)):
        if key in schema:
            values.append((f"{key} × {factor}", schema[key] * factor))
    return values


def mutations(payload, schema, definitions):
    """Changed copies of `payload`, each named by what changed."""
    properties = schema.get("properties", {})
    for name in properties:
        property_schema = resolved(properties[name], definitions)
        if "x-eventgen-external" in property_schema:
            continue  # The app's own JSON: the schema says nothing about it, by design.
        if name in payload:
            changed = copy.deepcopy(payload)
            del changed[name]
            yield f"{name} removed", changed
        for what, value in REPLACEMENTS + beyond_bounds(property_schema):
            changed = copy.deepcopy(payload)
            changed[name] = value
            yield f"{name} = {what}", changed


def agree(schema_path):
    document = load(schema_path)
    definitions = document["$defs"]
    validators = {}
    mutated = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        item = simplejson.loads(line, use_decimal=True)
        name = item["def"]
        if name not in validators:
            validators[name] = jsonschema.Draft202012Validator({**document, "$ref": f"#/$defs/{name}"})
        validator = validators[name]
        cases = [("original", item["payload"])]
        if mutated.get(name, 0) < MUTATED_PER_DEFINITION:
            mutated[name] = mutated.get(name, 0) + 1
            cases += list(mutations(item["payload"], resolved(definitions[name], definitions), definitions))
        for what, payload in cases:
            error = jsonschema.exceptions.best_match(validator.iter_errors(payload))
            verdict = "valid" if error is None else "invalid"
            print(f"{verdict}\t{name}\t{what}\t{dumps(payload)}")


def consume(asyncapi_path, folder):
    """Generates the consumer with asyncapi-python's code generator, then reads standard input."""
    folder = Path(folder)
    package = folder / "contract_consumer"
    subprocess.run(
        [str(Path(sys.executable).parent / "asyncapi-python-codegen"), asyncapi_path, str(package), "--force"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    sys.path.insert(0, str(folder))
    models = importlib.import_module("contract_consumer.messages.json")

    # The contract names each event's model: the message whose name is the CloudEvent type.
    model_names = {}
    for message in load(asyncapi_path)["components"]["messages"].values():
        model_names[message["name"]] = message["payload"]["$ref"].rsplit("/", 1)[-1]

    for line in sys.stdin:
        if not line.strip():
            continue
        event = simplejson.loads(line, use_decimal=True)
        if event.get("specversion") != "1.0":
            raise SystemExit(f"not a CloudEvents 1.0 event: {line[:200]}")
        model = getattr(models, model_names[event["type"]])
        value = model.model_validate(event.get("data", {}))
        written = {
            "specversion": "1.0",
            "id": event["id"],
            "source": "/python-consumer",
            "type": event["type"],
            "datacontenttype": "application/json",
            "data": value.model_dump(mode="python", by_alias=True, exclude_unset=True),
        }
        print(dumps(written))


def yaml_equals(yaml_path, json_path):
    """Whether PyYAML (a YAML 1.1 reader) reads the YAML document as the JSON one."""
    import yaml

    with open(yaml_path, encoding="utf-8") as file:
        read = yaml.safe_load(file)
    # Numbers as floats on both sides, as PyYAML reads them (not simplejson's decimals).
    with open(json_path, encoding="utf-8") as file:
        expected = json.load(file)
    print("equal" if read == expected else "different")


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "agree" and len(arguments) == 1:
        agree(*arguments)
    elif command == "yaml-equals" and len(arguments) == 2:
        yaml_equals(*arguments)
    elif command == "consume" and len(arguments) == 2:
        consume(*arguments)
    else:
        raise SystemExit(__doc__)
