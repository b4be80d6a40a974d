"""The CloudEvents Python SDK (pip package cloudevents 2.2.0, its cloudevents.core API) as a
client of the HTTP endpoint: it posts events it made itself in the binary, structured and batch
modes (the SDK has no batch function: a batch is a JSON array of structured events, each written
by the SDK's JSON format), posts the binary one again, and reads a page back with the SDK.

    python cloudevents_http_client.py URL TOKEN TYPE SUBJECT

TYPE is the wire name of an event with fields board, text and author; SUBJECT its board. It
prints one JSON object: {"posted": [{"mode", "id", "status", "answer"}], "page": [{"id",
"type", "source", "subject", "data"}]}. httpx sends the requests (installed with the SDK's
dependencies in the peers' environment)."""
import json
import sys

import httpx
from cloudevents.core.bindings import http
from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent

FORMAT = JSONFormat()
BATCH = "application/cloudevents-batch+json"


def event(event_type, subject, text):
    # No id or time: the SDK makes them (a UUID4, the current time), as an app using it would.
    attributes = {"type": event_type, "source": "/python-sdk", "subject": subject,
                  "datacontenttype": "application/json"}
    return CloudEvent(attributes=attributes, data={"board": subject, "text": text, "author": "python"})


def main(url, token, event_type, subject):
    authorization = {"authorization": f"Bearer {token}"}
    posted = []

    def post(mode, event_id, headers, body):
        answer = httpx.post(url, headers={**authorization, **headers}, content=body)
        posted.append({"mode": mode, "id": event_id, "status": answer.status_code, "answer": answer.json()})

    binary = event(event_type, subject, "binary")
    message = http.to_binary(binary, FORMAT)
    post("binary", binary.get_id(), dict(message.headers), message.body)

    structured = event(event_type, subject, "structured")
    message = http.to_structured(structured, FORMAT)
    post("structured", structured.get_id(), dict(message.headers), message.body)

    batch = [event(event_type, subject, f"batch {index}") for index in range(3)]
    body = "[" + ",".join(FORMAT.write(element).decode() for element in batch) + "]"
    post("batch", [element.get_id() for element in batch], {"content-type": BATCH}, body.encode())

    # A retry of the first request, as after a lost answer.
    message = http.to_binary(binary, FORMAT)
    post("binary again", binary.get_id(), dict(message.headers), message.body)

    answer = httpx.get(url, headers={**authorization, "accept": BATCH}, params={"limit": "100"})
    answer.raise_for_status()
    page = []
    for element in answer.json():
        read = FORMAT.read(None, json.dumps(element))
        page.append({"id": read.get_id(), "type": read.get_type(), "source": read.get_source(),
                     "subject": read.get_subject(), "data": read.get_data()})
    print(json.dumps({"posted": posted, "page": page}))


if __name__ == "__main__":
    main(*sys.argv[1:5])
