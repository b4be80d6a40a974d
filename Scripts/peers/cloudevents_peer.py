"""The CloudEvents Python SDK (pip package cloudevents 2.2.0, its cloudevents.core API) as a
peer of the Swift envelopes, in every content mode: structured JSON, binary HTTP, binary
Kafka, and the JSON batch format (the SDK has no batch function: a batch is a JSON array of
structured events, read and written here with the SDK's JSON format element by element).

    python cloudevents_peer.py IN.json OUT.json

IN: {"messages": [{"mode", "headers", "body"}], "originate": [{"type", "source", "subject",
"data", "extensions"}]}, bodies in base64. OUT: {"read": [[event…] per message], "written":
[message…], "originated": [[message per mode] per event]}: what the SDK read from each message
(attributes, time in ISO form, data), each message written again by the SDK in its mode, and
events the SDK made itself with its defaults (a UUID4 id, the current time), in every mode."""
import base64
import json
import sys

from cloudevents.core.bindings import http, kafka
from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent

FORMAT = JSONFormat()
MODES = ["structured", "http", "kafka", "batch"]


def describe(event):
    attributes = {}
    for name, value in event.get_attributes().items():
        attributes[name] = value.isoformat() if hasattr(value, "isoformat") else value
    data = event.get_data()
    if isinstance(data, (bytes, bytearray)):
        data = {"base64": base64.b64encode(data).decode()}
    return {"attributes": attributes, "data": data}


def read(message):
    body = base64.b64decode(message["body"])
    mode = message["mode"]
    if mode == "structured":
        return [http.from_structured(http.HTTPMessage(headers=message["headers"], body=body), FORMAT)]
    if mode == "http":
        return [http.from_binary(http.HTTPMessage(headers=message["headers"], body=body), FORMAT)]
    if mode == "kafka":
        headers = {name: value.encode() for name, value in message["headers"].items()}
        return [kafka.from_binary(kafka.KafkaMessage(headers=headers, key=None, value=body), FORMAT)]
    if mode == "batch":
        return [FORMAT.read(None, json.dumps(element)) for element in json.loads(body)]
    raise ValueError(f"unknown mode {mode}")


def write(events, mode):
    if mode == "structured":
        message = http.to_structured(events[0], FORMAT)
        headers = dict(message.headers)
    elif mode == "http":
        message = http.to_binary(events[0], FORMAT)
        headers = dict(message.headers)
    elif mode == "kafka":
        message = kafka.to_binary(events[0], FORMAT)
        headers = {name: value.decode() for name, value in message.headers.items()}
        return {"mode": mode, "headers": headers, "body": base64.b64encode(message.value).decode()}
    else:
        body = "[" + ",".join(FORMAT.write(event).decode() for event in events) + "]"
        return {"mode": mode, "headers": {"content-type": "application/cloudevents-batch+json"},
                "body": base64.b64encode(body.encode()).decode()}
    return {"mode": mode, "headers": headers, "body": base64.b64encode(message.body).decode()}


def main(source, target):
    with open(source) as file:
        request = json.load(file)
    reads, written, originated = [], [], []
    for message in request["messages"]:
        events = read(message)
        reads.append([describe(event) for event in events])
        written.append(write(events, message["mode"]))
    for wanted in request["originate"]:
        attributes = {"type": wanted["type"], "source": wanted["source"], "datacontenttype": "application/json"}
        if wanted.get("subject") is not None:
            attributes["subject"] = wanted["subject"]
        attributes.update(wanted.get("extensions", {}))
        event = CloudEvent(attributes=attributes, data=wanted["data"])
        originated.append({"event": describe(event), "messages": [write([event], mode) for mode in MODES]})
    with open(target, "w") as file:
        json.dump({"read": reads, "written": written, "originated": originated}, file)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
