"""Random instances of real services' message schemas: do eventgen's types and JSON Schema agree?

For each message of each document (read unchanged, as real_world_examples.py reads them), draws
random instances of its payload schema with hypothesis-jsonschema (derandomized: the same
instances on every run), at least 200 per document. Python's jsonschema (draft-07, the AsyncAPI
schema format's base) checks each one. Then, through the Swift round-trip program that
Scripts/asyncapi-real-world builds from the generated code:

- every valid instance must decode (one with an integer beyond Int64 may be refused instead,
  never changed), and encode back to the same value: the same JSON, except
  where JSON Schema itself says the two mean the same (a `default` or `const` written out, a
  `null` left out, one instant in two spellings, to the precision of `Date`, a UUID's letter
  case), and except keys that an
  object with `properties` does not declare and whose `additionalProperties` is not given: those
  are not kept (see the DocC mapping table);
- every mutant that JSON Schema refuses for a reason the generated types check (a required key
  removed, a value of the wrong JSON type, a `const` changed) must be refused too.

A schema hypothesis-jsonschema cannot draw from (a recursive one) is reported, not hidden.

Usage: real_world_instances.py <round-trip executable> <module>=<document> ...
Needs hypothesis-jsonschema and jsonschema (Scripts/peers/setup). Exits 1 on a disagreement.
"""

import copy
import datetime
import json
import math
import subprocess
import sys
import tempfile
import warnings

import jsonschema
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.errors import NonInteractiveExampleWarning
from hypothesis_jsonschema import from_schema

from real_world_examples import load, messages, resolve

PER_DOCUMENT = 200
PER_MESSAGE_AT_LEAST = 4
SCALARS = {"string": "a string", "integer": 7, "number": 0.5, "boolean": True, "array": [], "object": {}}


def payload_schema(document, message):
    """The message's payload as a schema whose `$ref`s resolve against the document."""
    payload = resolve(document, message.get("payload"))
    if isinstance(payload, dict) and "schemaFormat" in payload and "schema" in payload:
        payload = resolve(document, payload["schema"])
    if not isinstance(payload, dict):
        return None
    root = dict(payload)
    # Local references name `#/components/...`: the document's own components, beside the schema.
    root.setdefault("components", document.get("components") or {})
    return root


def draw(schema, count):
    """`count` instances of `schema`, the same ones every run."""
    drawn = []

    @settings(
        max_examples=count, database=None, derandomize=True, deadline=None,
        suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    # A copy: hypothesis-jsonschema rewrites the schema it is given (a one-value `enum` becomes a
    # `const`), and the document's nodes are shared.
    @given(from_schema(copy.deepcopy(schema)))
    def collect(value):
        drawn.append(value)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        collect()
    return drawn


def merged(document, schema):
    """`schema` resolved, with the `properties`, `required` and choices of its `allOf` members."""
    schema = resolve(document, schema)
    if not isinstance(schema, dict):
        return {}
    result = dict(schema)
    properties = dict(schema.get("properties") or {})
    required = list(schema.get("required") or [])
    for member in schema.get("allOf") or []:
        member = merged(document, member)
        for key, value in (member.get("properties") or {}).items():
            properties.setdefault(key, value)
        required += member.get("required") or []
        for keyword in ("oneOf", "anyOf", "type", "format", "items", "additionalProperties"):
            if keyword in member and keyword not in result:
                result[keyword] = member[keyword]
    result["properties"] = properties
    result["required"] = required
    return result


def big_integer(value):
    """Whether `value` holds an integer outside Int64, which an `integer` field cannot take."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -(2**63) <= value < 2**63
    if isinstance(value, dict):
        return any(big_integer(v) for v in value.values())
    if isinstance(value, list):
        return any(big_integer(v) for v in value)
    return False


REFERENCE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def same_instant(a, b):
    """One instant, to the precision of Foundation's `Date`: a Double of seconds since 2001, whose
    spacing is a few microseconds in the years 1000 or 3000."""
    if a is None or b is None:
        return False
    seconds = abs((a - REFERENCE).total_seconds())
    return abs((a - b).total_seconds()) <= 4 * math.ulp(seconds) + 1e-6


def instant(text):
    try:
        return datetime.datetime.fromisoformat(text.replace("z", "Z").replace("t", "T"))
    except ValueError:
        return None


def same(document, schema, sent, back):
    """Whether `back` (what the generated type wrote) means what `sent` meant, under `schema`."""
    schema = merged(document, schema)
    for keyword in ("oneOf", "anyOf"):
        branches = schema.get(keyword)
        if branches:
            rest = {k: v for k, v in schema.items() if k != keyword}
            if any(same(document, {"allOf": [rest, branch]}, sent, back) for branch in branches):
                return True
    if isinstance(sent, bool) or isinstance(back, bool):
        return type(sent) is type(back) and sent == back
    if isinstance(sent, dict) and isinstance(back, dict):
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        for key in set(sent) | set(back):
            sub = properties.get(key, extra if isinstance(extra, dict) else {})
            if key in sent and key in back:
                if not same(document, sub, sent[key], back[key]):
                    return False
            elif key in sent:
                # An optional key's null is left out. A key the schema does not declare is kept
                # only where `additionalProperties` (or no `properties` at all) says so, as
                # swift-openapi-generator does: JSON Schema allows it, and nothing names it.
                undeclared = key not in properties and properties and "additionalProperties" not in schema
                if sent[key] is not None and not undeclared:
                    return False
            else:
                sub = merged(document, sub)
                if not any(k in sub and sub[k] == back[key] for k in ("default", "const")):
                    return False
        return True
    if isinstance(sent, list) and isinstance(back, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return len(sent) == len(back) and all(same(document, items, a, b) for a, b in zip(sent, back))
    if isinstance(sent, str) and isinstance(back, str):
        if schema.get("format") == "date-time":
            return same_instant(instant(sent), instant(back))
        if schema.get("format") == "uuid":
            return sent.lower() == back.lower()
    if isinstance(sent, float) and isinstance(back, (int, float)) and math.isfinite(sent):
        return sent == back or math.isclose(sent, back, rel_tol=1e-15)
    return sent == back


def mutants(document, schema, instance):
    """(what changed, mutant) pairs that the generated types must refuse, top level only."""
    if not isinstance(instance, dict):
        return []
    schema = merged(document, schema)
    if schema.get("oneOf") or schema.get("anyOf"):
        return []  # which member's rules apply depends on the member: not mutated
    result = []
    properties = schema.get("properties") or {}
    for key in schema.get("required") or []:
        if key in instance and "default" not in merged(document, properties.get(key, {})):
            mutant = copy.deepcopy(instance)
            del mutant[key]
            result.append((f"required `{key}` removed", mutant))
    for key, value in instance.items():
        sub = merged(document, properties.get(key, {}))
        kind = sub.get("type")
        if "const" in sub:
            mutant = copy.deepcopy(instance)
            mutant[key] = "not-" + str(sub["const"]) if isinstance(sub["const"], str) else "a string"
            result.append((f"const `{key}` changed", mutant))
        elif isinstance(kind, str) and kind in SCALARS and not (sub.get("oneOf") or sub.get("anyOf")):
            # Not a number for a string: a `date-time` field reads one as seconds since 2001,
            # what Swift's JSONEncoder writes for a Date (documented in the mapping table).
            wrong = "a string" if kind != "string" else True
            mutant = copy.deepcopy(instance)
            mutant[key] = wrong
            result.append((f"`{key}` of type {kind} given {json.dumps(wrong)}", mutant))
    return result


def main():
    program, pairs = sys.argv[1], sys.argv[2:]
    # Hypothesis keeps caches in `.hypothesis` under the working directory: not in a checkout.
    home = tempfile.TemporaryDirectory()
    set_hypothesis_home_dir(home.name)
    requests = []
    skipped = []
    for pair in pairs:
        module, path = pair.split("=", 1)
        document = load(path)
        found = [(key, message) for key, message in messages(document) if payload_schema(document, message)]
        count = max(PER_MESSAGE_AT_LEAST, -(-PER_DOCUMENT // max(len(found), 1)))
        for key, message in found:
            name = message.get("name") or key
            schema = payload_schema(document, message)
            validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
            try:
                instances = draw(schema, count)
            except Exception as error:  # hypothesis-jsonschema refuses some schemas, e.g. recursive ones
                skipped.append(f"{path}: {name}: cannot draw instances: {type(error).__name__}: {str(error)[:160]}")
                continue
            for instance in instances:
                if not validator.is_valid(instance):
                    continue
                base = {"module": module, "name": name, "path": path, "schema": schema, "document": document}
                # Beyond Int64: refused where the field is an integer, kept exactly in a JSONValue.
                expect = "same or refused" if big_integer(instance) else "same"
                requests.append({**base, "payload": instance, "expect": expect})
                for change, mutant in mutants(document, schema, instance):
                    if not validator.is_valid(mutant):
                        requests.append({**base, "payload": mutant, "expect": "refused", "change": change})
    lines = "".join(json.dumps({k: r[k] for k in ("module", "name", "payload")}) + "\n" for r in requests)
    answers = subprocess.run([program], input=lines, capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    if len(answers) != len(requests):
        sys.exit(f"real-world instances: {len(requests)} requests, {len(answers)} answers")
    counts = {}
    failures = 0
    for request, line in zip(requests, answers):
        answer = json.loads(line)
        if request["expect"] == "same":
            ok = "json" in answer and same(request["document"], request["schema"], request["payload"], answer["json"])
            what = "valid instances agree"
        elif request["expect"] == "same or refused":
            ok = "error" in answer or same(request["document"], request["schema"], request["payload"], answer["json"])
            what = "valid instances with integers beyond Int64 refused or kept"
        else:
            ok = "error" in answer
            what = "mutants refused"
        tally = counts.setdefault(request["path"], {})
        total, passed = tally.get(what, (0, 0))
        tally[what] = (total + 1, passed + ok)
        if not ok:
            failures += 1
            if failures <= int(__import__("os").environ.get("SHOW", "20")):
                got = answer.get("error") or json.dumps(answer.get("json"), sort_keys=True)
                sent = json.dumps(request["payload"], sort_keys=True)
                print(f"FAIL {request['path']}: {request['name']} {request.get('change', '')}: {sent[:300]} -> {got[:300]}")
    for path, tally in counts.items():
        print(f"{path}: " + ", ".join(f"{passed} of {total} {what}" for what, (total, passed) in tally.items()))
    for line in skipped:
        print(f"NOT DRAWN {line}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
