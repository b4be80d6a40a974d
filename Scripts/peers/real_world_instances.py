"""Random instances of real services' message schemas: do eventgen's types and JSON Schema agree?

For each message of each document (read unchanged, as real_world_examples.py reads them), draws
random instances of its payload schema with hypothesis-jsonschema (derandomized: the same
instances on every run), 200 per message unless an argument `--per-message=N` before a document
says otherwise (one process per core draws them); a schema that allows
few values gives fewer distinct ones, and the summary names the message with the fewest. Mutants
are made of the first 25 of each message. Python's jsonschema (draft-07, the AsyncAPI
schema format's base) checks each one. Then, through the Swift round-trip program that
Scripts/asyncapi-real-world builds from the generated code:

- every valid instance must decode (one with an integer beyond Int64, or with a number no Float
  holds where the schema says `format: float`, may be refused instead, never changed), and
  encode back to the same value: the same JSON, except
  where JSON Schema itself says the two mean the same (a `default` or `const` written out, a
  `null` left out, one instant in two spellings, to the precision of `Date`, a `format: float`
  number to Float's precision, a UUID's letter case), and except keys that an
  object with `properties` does not declare and whose `additionalProperties` is not given: those
  are not kept (see the DocC mapping table);
- every mutant that JSON Schema refuses for a reason the generated types check (a required key
  removed, a value of the wrong JSON type, a `const` changed) must be refused too.

A recursive schema, which hypothesis-jsonschema does not draw from, is drawn from with its
recursion written out three levels deep (and reported); a schema no instance can satisfy is
reported as not drawn, not hidden.

Usage: real_world_instances.py <round-trip executable> [--per-message=N] <module>=<document> ...
(`--per-message=N` holds for the documents after it.)
Needs hypothesis-jsonschema and jsonschema (Scripts/peers/setup). Exits 1 on a disagreement.
"""

import copy
from fractions import Fraction
import json
import math
import multiprocessing
import re
import struct
import os
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

# Instances drawn of every message's schema (fewer where the schema allows fewer values).
PER_MESSAGE = 200
# Mutants are made of this many of each message's instances.
MUTATED_PER_MESSAGE = 25
# Arrays are drawn with at most this many items beyond their `minItems`: long arrays of objects
# made half the drawing time and check nothing a few items do not (see `bounded`).
ITEMS_DRAWN = 3
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
    if "x-bundled" in document:  # the files its `$ref`s name (`load`)
        root.setdefault("x-bundled", document["x-bundled"])
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


def unrolled(document, schema, depth=3):
    """`schema` with its local `$ref`s written out, a recursive one `depth` levels deep and
    `false` (no value) below that: a schema hypothesis-jsonschema draws from, as it draws from no
    recursive one. It allows fewer values than `schema`, never others, so what is drawn from it
    is an instance of `schema`; each instance is still judged against `schema` itself."""

    def walk(node, stack):
        if isinstance(node, list):
            return [walk(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/"):
            if stack.count(reference) >= depth:
                return False
            inner = walk(resolve(document, {"$ref": reference}), stack + [reference])
            siblings = {key: value for key, value in node.items() if key != "$ref"}
            return {"allOf": [inner, walk(siblings, stack)]} if siblings else inner
        # Values, not schemas: copied as they are.
        return {
            key: value if key in ("const", "enum", "examples", "default") else walk(value, stack)
            for key, value in node.items()
            if key not in ("components", "x-bundled")
        }

    return walk(schema, [])


# Keywords whose value is a schema, a list of schemas, or a map of names to schemas (draft-07).
SCHEMA_KEYWORDS = {"items", "additionalItems", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else"}
SCHEMA_LIST_KEYWORDS = {"allOf", "anyOf", "oneOf", "items"}
SCHEMA_MAP_KEYWORDS = {"properties", "patternProperties", "definitions", "$defs"}


def bounded(schema):
    """`schema` with every array schema allowing at most `ITEMS_DRAWN` items more than its
    `minItems` (or its own `maxItems`, where lower). A bound only narrows what a schema allows, so
    what is drawn from it is an instance of `schema`; each instance is still judged against `schema`
    itself. Walks schema keywords only: a property named `items` is a name, not a keyword."""

    def walk(node):
        if not isinstance(node, dict):
            return node
        result = {}
        for key, value in node.items():
            if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
                result[key] = {name: walk(member) for name, member in value.items()}
            elif key in SCHEMA_LIST_KEYWORDS and isinstance(value, list):
                result[key] = [walk(member) for member in value]
            elif key in SCHEMA_KEYWORDS:
                result[key] = walk(value)
            elif key == "x-bundled" and isinstance(value, dict):
                # The files the document's `$ref`s name, each a schema.
                result[key] = {name: walk(member) for name, member in value.items()}
            elif key == "components" and isinstance(value, dict):
                # The document's components, beside the schema so that `$ref`s resolve.
                result[key] = {
                    section: {name: walk(member) for name, member in members.items()} if isinstance(members, dict) else members
                    for section, members in value.items()
                }
            else:
                result[key] = value
        kind = node.get("type")
        if "items" in node or kind == "array" or (isinstance(kind, list) and "array" in kind):
            least = node.get("minItems", 0)
            most = least + ITEMS_DRAWN
            if isinstance(node.get("maxItems"), int):
                most = min(most, node["maxItems"])
            result["maxItems"] = most
        return result

    return walk(schema)


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


def float32(number):
    """`number` as the nearest Float, as a Double; None where a Float holds no such value: beyond
    its range, or so close to zero that it would be zero."""
    try:
        value = struct.unpack("f", struct.pack("f", number))[0]
    except OverflowError:
        return None
    if (value == 0 and number != 0) or (math.isinf(value) and not math.isinf(number)):
        return None
    return value


def beyond_float(document, schema, value):
    """Whether `value` holds, where `schema` says `format: float`, a number no Float holds,
    which a `Float` field refuses rather than make infinite or zero."""
    schema = merged(document, schema)
    if isinstance(value, bool):
        return False
    # A member first: `anyOf: [{type: number, format: float}, {type: "null"}]` is a `Float?`.
    for keyword in ("oneOf", "anyOf"):
        if any(beyond_float(document, branch, value) for branch in schema.get(keyword) or []):
            return True
    if isinstance(value, (int, float)):
        return schema.get("format") == "float" and float32(value) is None
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        extra = extra if isinstance(extra, dict) else {}
        return any(beyond_float(document, properties.get(key, extra), item) for key, item in value.items())
    if isinstance(value, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return any(beyond_float(document, items, item) for item in value)
    return False


DATE_TIME = re.compile(
    r"(-?\d{4,})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(\.\d+)?(?:([Zz])|([+-])(\d\d):(\d\d))$")


def days_from_civil(year, month, day):
    """Days from 1970-01-01 to a proleptic Gregorian date, for any year, 0 and before included
    (Python's datetime stops at year 1; a time in 0001-01-01 with a positive offset is in year 0)."""
    year -= month <= 2
    era = year // 400  # Python's // floors, as the formula's era needs, negative years too
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


# 2001-01-01, the reference date of Foundation's `Date`, in days from 1970.
REFERENCE_DAYS = days_from_civil(2001, 1, 1)


def instant(text):
    """An RFC 3339 date-time as seconds since 2001 (exact, a Fraction), or None."""
    match = DATE_TIME.match(text)
    if not match:
        return None
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    seconds = Fraction((days_from_civil(year, month, day) - REFERENCE_DAYS) * 86400 + hour * 3600 + minute * 60 + second)
    if match.group(7):
        seconds += Fraction(match.group(7))
    if match.group(9):
        offset = (int(match.group(10)) * 60 + int(match.group(11))) * 60
        seconds -= offset if match.group(9) == "+" else -offset
    return seconds


def same_instant(a, b):
    """One instant, to the precision of Foundation's `Date`: a Double of seconds since 2001, whose
    spacing is a few microseconds in the years 1000 or 3000."""
    if a is None or b is None:
        return False
    return abs(a - b) <= 4 * math.ulp(abs(float(a))) + 1e-6


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
    if schema.get("format") == "float" and isinstance(sent, (int, float)) and isinstance(back, (int, float)):
        # A `Float` field keeps a number to Float's precision (the mapping table says so).
        return float32(sent) is not None and float32(sent) == float32(back)
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


_documents = {}


def drawn_for(task):
    """(instances, how) for one message: `count` drawn as it is, else with its recursion written
    out; (None, why) when neither can be drawn from. Run in a worker process."""
    path, key, count = task
    if path not in _documents:
        _documents[path] = load(path)
    document = _documents[path]
    message = dict(messages(document))[key]
    schema = payload_schema(document, message)
    try:
        return draw(bounded(schema), count), "drawn"
    except Exception:  # hypothesis-jsonschema refuses some schemas, e.g. recursive ones
        try:
            return draw(bounded(unrolled(document, schema)), count), "unrolled"
        except Exception as error:
            return None, f"cannot draw instances: {type(error).__name__}: {str(error)[:160]}"


def main():
    program, pairs = sys.argv[1], sys.argv[2:]
    # Hypothesis keeps caches in `.hypothesis` under the working directory: not in a checkout.
    home = tempfile.TemporaryDirectory()
    set_hypothesis_home_dir(home.name)
    requests = []
    skipped = []
    unrolled_messages = []
    fewest = {}  # path -> (distinct valid instances, message name), the message with the fewest
    tasks = []
    documents = {}
    per_message = PER_MESSAGE
    for pair in pairs:
        if pair.startswith("--per-message="):
            per_message = int(pair.split("=", 1)[1])
            continue
        module, path = pair.split("=", 1)
        documents[path] = (module, load(path))
        tasks += [(path, key, per_message) for key, message in messages(documents[path][1]) if payload_schema(documents[path][1], message)]
    # Drawing is most of the time: one process per core. A fresh process per message, so that
    # what is drawn for it does not depend on what its process drew before (hypothesis keeps
    # state between draws): the same instances on every run, however the messages are spread.
    with multiprocessing.Pool(
        os.cpu_count(), initializer=set_hypothesis_home_dir, initargs=(home.name,), maxtasksperchild=1
    ) as pool:
        drawn = pool.map(drawn_for, tasks, chunksize=1)
    for (path, key, _), (instances, how) in zip(tasks, drawn):
        module, document = documents[path]
        message = dict(messages(document))[key]
        name = message.get("name") or key
        if instances is None:
            skipped.append(f"{path}: {name}: {how}")
            continue
        if how == "unrolled":
            unrolled_messages.append(f"{path}: {name}")
        schema = payload_schema(document, message)
        validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
        distinct = set()
        for index, instance in enumerate(instances):
            if not validator.is_valid(instance):
                continue
            distinct.add(json.dumps(instance, sort_keys=True))
            base = {"module": module, "name": name, "path": path, "schema": schema, "document": document}
            # Beyond Int64: refused where the field is an integer, kept exactly in a JSONValue;
            # beyond Float where the field is a `Float`: refused.
            expect = "same or refused" if big_integer(instance) or beyond_float(document, schema, instance) else "same"
            requests.append({**base, "payload": instance, "expect": expect})
            for change, mutant in mutants(document, schema, instance) if index < MUTATED_PER_MESSAGE else []:
                if not validator.is_valid(mutant):
                    requests.append({**base, "payload": mutant, "expect": "refused", "change": change})
        if path not in fewest or len(distinct) < fewest[path][0]:
            fewest[path] = (len(distinct), name)
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
            what = "valid instances with integers beyond Int64 or numbers beyond Float refused or kept"
        else:
            ok = "error" in answer
            what = "mutants refused"
        tally = counts.setdefault(request["path"], {})
        total, passed = tally.get(what, (0, 0))
        tally[what] = (total + 1, passed + ok)
        if not ok:
            failures += 1
            if os.environ.get("FAILURES"):
                with open(os.environ["FAILURES"], "a", encoding="utf-8") as file:
                    file.write(json.dumps({"name": request["name"], "sent": request["payload"], "answer": answer}) + "\n")
            if failures <= int(__import__("os").environ.get("SHOW", "20")):
                got = answer.get("error") or json.dumps(answer.get("json"), sort_keys=True)
                sent = json.dumps(request["payload"], sort_keys=True)
                print(f"FAIL {request['path']}: {request['name']} {request.get('change', '')}: {sent[:300]} -> {got[:300]}")
    for path, tally in counts.items():
        print(f"{path}: " + ", ".join(f"{passed} of {total} {what}" for what, (total, passed) in tally.items()))
        count, name = fewest[path]
        print(f"{path}: the message with the fewest distinct valid instances: {name}, {count}")
    for line in unrolled_messages:
        print(f"DRAWN WITH RECURSION 3 DEEP {line}")
    for line in skipped:
        print(f"NOT DRAWN {line}")
    # A schema no instance satisfies has nothing to draw; any other message not drawn from is a
    # gap in the check, and fails it.
    undrawn = [line for line in skipped if "Unsatisfiable" not in line]
    sys.exit(1 if failures or undrawn else 0)


if __name__ == "__main__":
    main()
