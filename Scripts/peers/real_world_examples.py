"""The examples of real services' AsyncAPI documents, as their backends send them.

Reads each document (YAML or JSON, unchanged), finds every message that has examples (the
message's `examples[].payload`, and the payload schema's own `example`/`examples`), and writes
one JSON line per example to stdin of the Swift round-trip program:
{"module": ..., "name": <wire name>, "payload": ...}. The program decodes each with the generated
type, encodes it back, and answers one line each: {"json": ...} or {"error": "..."}. An example
passes when what comes back equals it as JSON (Python's ==: 1 == 1.0, key order ignored).

Usage: real_world_examples.py <round-trip executable> <module>=<document> ...
Prints one line per document and exits 1 when an example fails.
"""

import json
import subprocess
import sys

import yaml


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle) if path.endswith(".json") else yaml.safe_load(handle)


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


def main():
    program, pairs = sys.argv[1], sys.argv[2:]
    requests = []
    for pair in pairs:
        module, path = pair.split("=", 1)
        document = load(path)
        for key, message in messages(document):
            name = message.get("name") or key
            for payload in examples(document, message):
                requests.append({"module": module, "name": name, "payload": payload, "path": path})
    lines = "".join(json.dumps({k: v for k, v in r.items() if k != "path"}) + "\n" for r in requests)
    answers = subprocess.run([program], input=lines, capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    if len(answers) != len(requests):
        sys.exit(f"real-world examples: {len(requests)} examples, {len(answers)} answers")
    failures = 0
    counts = {}
    for request, line in zip(requests, answers):
        answer = json.loads(line)
        total, passed = counts.get(request["path"], (0, 0))
        ok = "json" in answer and answer["json"] == request["payload"]
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
