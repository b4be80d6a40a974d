"""The examples of real services' AsyncAPI documents, as their backends send them.

Reads each document (YAML or JSON, unchanged), finds every message that has examples (the
message's `examples[].payload`, and the payload schema's own `example`/`examples`), and writes
one JSON line per example to stdin of the Swift round-trip program:
{"module": ..., "name": <wire name>, "payload": ...}. The program decodes each with the generated
type, encodes it back, and answers one line each: {"json": ...} or {"error": "..."}. An example
passes when what comes back equals it as JSON (Python's ==: 1 == 1.0, key order ignored), but for
keys the example leaves out that come back with their schema's `default`: the generated type
reads an absent key as its default and writes it, which JSON Schema reads as the same value.

Usage: real_world_examples.py <round-trip executable> <module>=<document> ...
Prints one line per document and exits 1 when an example fails.
"""

import json
import os
import subprocess
import sys

import yaml


def read(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle) if path.endswith(".json") else yaml.safe_load(handle)


def load(path):
    """The document, with the files its relative `$ref`s name bundled into it under `x-bundled`
    and those references made local (`#/x-bundled/<file>/<pointer>`), so that every reference
    resolves within it, as eventgen resolves them across files."""
    document = read(path)
    keys = {}
    bundled = {}

    def key_for(target):
        target = os.path.normpath(target)
        if target not in keys:
            keys[target] = f"file{len(keys)}"  # before its content, which may refer to itself
            bundled[keys[target]] = local(read(target), target)
        return keys[target]

    def local(node, base):
        if isinstance(node, list):
            return [local(item, base) for item in node]
        if not isinstance(node, dict):
            return node
        result = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and "://" not in value:
                file_part, _, pointer = value.partition("#")
                if file_part:
                    value = f"#/x-bundled/{key_for(os.path.join(os.path.dirname(base), file_part))}{pointer}"
                elif os.path.normpath(base) != os.path.normpath(path):
                    value = f"#/x-bundled/{keys[os.path.normpath(base)]}{pointer}"
                result[key] = value
            else:
                result[key] = local(value, base)
        return result

    document = local(document, path)
    if bundled:
        document["x-bundled"] = bundled
    return document


def resolve(document, node):
    """Follows local `$ref`s (`#/...`) to the node they name."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 100:
        reference = node["$ref"]
        if not reference.startswith("#/"):
            return node
        target = document
        for part in reference[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
        seen += 1
    return node


def messages(document):
    """(key, message) of every message, components first, as eventgen meets them."""
    found = []
    seen = set()

    def add(key, node):
        message = resolve(document, node)
        if id(message) not in seen:
            seen.add(id(message))
            found.append((key, message))

    for key, node in (document.get("components", {}).get("messages") or {}).items():
        add(key, node)
    for channel in (document.get("channels") or {}).values():
        channel = resolve(document, channel)
        for key, node in (channel.get("messages") or {}).items():
            add(key, node)
        for operation in ("publish", "subscribe"):
            message = (channel.get(operation) or {}).get("message")
            if message is None:
                continue
            for node in message.get("oneOf", [message]):
                key = node.get("$ref", "").split("/")[-1] or node.get("messageId") or node.get("name")
                add(key, node)
    return found


def examples(document, message):
    result = []
    for example in message.get("examples") or []:
        if isinstance(example, dict) and "payload" in example:
            result.append(example["payload"])
    payload = resolve(document, message.get("payload"))
    if isinstance(payload, dict):
        if "example" in payload:
            result.append(payload["example"])
        for example in payload.get("examples") or []:
            result.append(example)
    return result


def properties(document, schema, depth=0):
    """The `properties` of a schema and of its `allOf` members, each resolved."""
    schema = resolve(document, schema)
    if not isinstance(schema, dict) or depth > 32:
        return {}
    found = {}
    for part in schema.get("allOf") or []:
        found.update(properties(document, part, depth + 1))
    for key, value in (schema.get("properties") or {}).items():
        found[key] = resolve(document, value)
    return found


def same(document, schema, example, back):
    """Whether `back` is `example`, or it with absent keys filled with their schema's default."""
    if isinstance(example, dict) and isinstance(back, dict):
        known = properties(document, schema)
        for key in back.keys() - example.keys():
            default = (known.get(key) or {}).get("default", same)  # `same`: no default at all
            if default is same or back[key] != default:
                return False
        return example.keys() <= back.keys() and all(
            same(document, known.get(key), example[key], back[key]) for key in example)
    if isinstance(example, list) and isinstance(back, list):
        items = (resolve(document, schema) or {}).get("items") if isinstance(resolve(document, schema), dict) else None
        return len(example) == len(back) and all(same(document, items, a, b) for a, b in zip(example, back))
    return example == back


def main():
    program, pairs = sys.argv[1], sys.argv[2:]
    requests = []
    for pair in pairs:
        module, path = pair.split("=", 1)
        document = load(path)
        for key, message in messages(document):
            name = message.get("name") or key
            for payload in examples(document, message):
                requests.append(
                    {"module": module, "name": name, "payload": payload, "path": path,
                     "schema": message.get("payload"), "document": document})
    lines = "".join(
        json.dumps({k: r[k] for k in ("module", "name", "payload")}) + "\n" for r in requests)
    answers = subprocess.run([program], input=lines, capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    if len(answers) != len(requests):
        sys.exit(f"real-world examples: {len(requests)} examples, {len(answers)} answers")
    failures = 0
    counts = {}
    for request, line in zip(requests, answers):
        answer = json.loads(line)
        total, passed = counts.get(request["path"], (0, 0))
        ok = "json" in answer and same(request["document"], request["schema"], request["payload"], answer["json"])
        counts[request["path"]] = (total + 1, passed + (1 if ok else 0))
        if not ok:
            failures += 1
            got = answer.get("error") or json.dumps(answer.get("json"), sort_keys=True)
            print(f"FAIL {request['path']}: {request['name']}: {json.dumps(request['payload'], sort_keys=True)[:300]} -> {got[:400]}")
    for path, (total, passed) in counts.items():
        print(f"{path}: {passed} of {total} examples round-trip")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
