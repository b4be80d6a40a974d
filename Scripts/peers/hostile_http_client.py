"""A client that is not ours, against a running `events-http-example` server: it sends more
than 100 bad requests of every kind the edge refuses, each over its own connection, and checks
that each gets its documented status and an `application/problem+json` document of the
documented `urn:typedevents:problem:` type. Then it checks that nothing was appended, that the
server still serves, that every page and every Server-Sent Events data line is JSON as Python's
own `json`, made strict (Scripts/strict-json-oracle), reads it, and that every event answered
201 is served, in pages and in a stream.

    python3 hostile_http_client.py EVENTS_URL

The server's tokens are the example's: `app` may append `Inventory.BoxProvisioned`, `reader`
may only read. Only the standard library: no peer of ours decides what is valid. Prints one
line per request and a summary; exits 1 with what failed."""
import base64
import http.client
import importlib.machinery
import importlib.util
import json
import os
import socket
import sys
import time
import urllib.parse
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("strict_json_oracle", os.path.join(HERE, "..", "strict-json-oracle"))
_spec = importlib.util.spec_from_loader("strict_json_oracle", _loader)
oracle = importlib.util.module_from_spec(_spec)
_loader.exec_module(oracle)

BOX = "Inventory.BoxProvisioned"
STRUCTURED = "application/cloudevents+json"
BATCH = "application/cloudevents-batch+json"
APP = {"Authorization": "Bearer app"}
READER = {"Authorization": "Bearer reader"}
failures = []


def strict(data):
    """The data parsed by the strict oracle, or a failure noted and None."""
    if oracle.verdict(data, 256) != "accept":
        return None
    return json.loads(data.decode("utf-8"))


class Endpoint:
    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path

    def request(self, method, query="", headers=None, body=None, chunked=False, timeout=30):
        """Status, headers (lower-case names) and body of one request on its own connection."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            target = self.path + (("?" + query) if query else "")
            connection.putrequest(method, target, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            if chunked:
                connection.putheader("Transfer-Encoding", "chunked")
            elif body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders()
            if chunked:
                for start in range(0, len(body), 65536):
                    piece = body[start:start + 65536]
                    try:
                        connection.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
                    except OSError:
                        break  # the server answered and closed before the rest
                else:
                    connection.send(b"0\r\n\r\n")
            elif body is not None:
                try:
                    connection.send(body)
                except OSError:
                    pass
            response = connection.getresponse()
            answer = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, answer
        finally:
            connection.close()

    def raw(self, data, wait_before_rest=None, rest=b"", timeout=30):
        """Sends bytes as they are, optionally more after a pause; the status line's code, or
        None when the server closed or reset without one, and the whole answer."""
        with socket.create_connection((self.host, self.port), timeout=timeout) as connection:
            try:
                connection.sendall(data)
                if wait_before_rest:
                    time.sleep(wait_before_rest)
                    connection.sendall(rest)
            except OSError:
                pass
            answer = b""
            try:
                while True:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
                    if b"\r\n\r\n" in answer and answer.startswith(b"HTTP/1.1"):
                        head, _, body = answer.partition(b"\r\n\r\n")
                        length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                        if length and len(body) >= int(length[0].split(b":")[1]):
                            break
            except OSError:
                pass
        if not answer.startswith(b"HTTP/1.1 "):
            return None, answer
        return int(answer[9:12]), answer


def box(subject=None, title="t"):
    subject = subject or str(uuid.uuid4()).upper()
    return {"boxId": subject, "title": title}, subject


def structured(event_id=None, data=None, subject=None, **attributes):
    data_value, box_subject = data if data is not None else box()
    event = {"specversion": "1.0", "id": event_id or "h-" + str(uuid.uuid4()), "source": "/hostile",
             "type": BOX, "subject": subject or box_subject, "datacontenttype": "application/json",
             "data": data_value}
    event.update(attributes)
    return event


def text(value):
    return json.dumps(value, separators=(",", ":")).encode()


def structured_text(raw_data, subject=None):
    """A structured event whose data member is `raw_data` as given, bytes and all."""
    head = text(structured(data=({}, subject or str(uuid.uuid4()).upper())))
    return head[: head.rindex(b'"data":') + len(b'"data":')] + raw_data + b"}"


def binary_headers(event_id=None, subject=None, **extra):
    headers = {"ce-specversion": "1.0", "ce-id": event_id or "h-" + str(uuid.uuid4()), "ce-source": "/hostile",
               "ce-type": BOX, "ce-subject": subject or str(uuid.uuid4()).upper(),
               "Content-Type": "application/json"}
    headers.update(APP)
    headers.update(extra)
    return headers


def forged(token, change):
    """A position token with its JSON changed by `change`."""
    padded = token + "=" * (-len(token) % 4)
    value = json.loads(base64.urlsafe_b64decode(padded))
    change(value)
    return base64.urlsafe_b64encode(text(value)).rstrip(b"=").decode()


def set_numbers(number):
    def change(value):
        for key, member in value.items():
            if isinstance(member, int) and not isinstance(member, bool):
                value[key] = number
    return change


def main(url):
    endpoint = Endpoint(url)
    page_headers = {**READER, "Accept": BATCH}

    def page(after=None, limit=1000):
        query = urllib.parse.urlencode({**({"after": after} if after else {}), "limit": limit})
        status, headers, body = endpoint.request("GET", query, page_headers)
        return status, headers, body

    def everything():
        """Every event, a page at a time, each page checked strictly; and the last position."""
        events, after = [], None
        while True:
            status, headers, body = page(after, 100)
            if status != 200:
                failures.append(f"a page after {after} answered {status}: {body[:300]!r}")
                return events, after
            value = strict(body)
            if not isinstance(value, list):
                failures.append(f"a page after {after} is not strict JSON: {body[:300]!r}")
                return events, after
            events += value
            if not value:
                return events, after
            after = headers.get("last-event-id")

    before, last = everything()
    status, headers, body = page(None, 1)
    first_token = headers.get("last-event-id")
    if status != 200 or not first_token:
        print(f"the store needs at least one event to start: {status} {body[:300]!r}", file=sys.stderr)
        return 1

    sent = 0

    def expect(what, answer, status, kind):
        nonlocal sent
        sent += 1
        got, headers, body = answer
        problem = strict(body) if headers.get("content-type", "").startswith("application/problem+json") else None
        wanted = "urn:typedevents:problem:" + kind
        if got != status or not isinstance(problem, dict) or problem.get("type") != wanted:
            failures.append(f"{what}: wanted {status} {wanted}, got {got} {headers.get('content-type')} {body[:300]!r}")
            print(f"FAIL {what}: {got}")
        else:
            print(f"ok   {what}: {got} {kind}")

    def post(body, content_type=STRUCTURED, headers=None, query="", chunked=False):
        return endpoint.request("POST", query, {**APP, "Content-Type": content_type, **(headers or {})}, body,
                                chunked=chunked)

    def malformed(what, body, content_type=STRUCTURED):
        expect(what, post(body, content_type), 400, "malformed-cloudevent")

    # Data other parsers read otherwise or not at all, in the structured, batch and binary modes.
    subject = str(uuid.uuid4()).upper()
    bad_data = {
        "a trailing comma": b'{"boxId":"%s","title":"t",}' % subject.encode(),
        "a key twice": b'{"boxId":"%s","title":"t","title":"u"}' % subject.encode(),
        "a key twice, one escaped": b'{"boxId":"%s","title":"t","titl\\u0065":"u"}' % subject.encode(),
        "a key twice, deep": b'{"boxId":"%s","title":"t","x":[{"a":1,"a":2}]}' % subject.encode(),
        "a raw line break in a string": b'{"boxId":"%s","title":"a\nb"}' % subject.encode(),
        "a raw tab in a string": b'{"boxId":"%s","title":"a\tb"}' % subject.encode(),
        "a lone surrogate": b'{"boxId":"%s","title":"\\ud800"}' % subject.encode(),
        "a bad escape": b'{"boxId":"%s","title":"\\q"}' % subject.encode(),
        "a number beyond a double": b'{"boxId":"%s","title":"t","n":1e400}' % subject.encode(),
        "NaN": b'{"boxId":"%s","title":"t","n":NaN}' % subject.encode(),
        "a leading zero": b'{"boxId":"%s","title":"t","n":01}' % subject.encode(),
        "single quotes": b"{'boxId':'%s','title':'t'}" % subject.encode(),
        "a comment": b'{"boxId":"%s",/* c */"title":"t"}' % subject.encode(),
        "bytes that are not UTF-8": b'{"boxId":"%s","title":"\xc3\x28"}' % subject.encode(),
        "an overlong UTF-8 form": b'{"boxId":"%s","title":"\xc0\xaf"}' % subject.encode(),
        "a surrogate in UTF-8": b'{"boxId":"%s","title":"\xed\xa0\x80"}' % subject.encode(),
        # Equal in NFC: Swift's JSONDecoder reads one key, Python two.
        "two keys equal in NFC (the Kelvin sign)": b'{"boxId":"%s","title":"t","xK":1,"x\\u212a":2}' % subject.encode(),
        "two keys equal in NFC (e and an accent)": b'{"boxId":"%s","title":"t","\xc3\xa9":1,"e\xcc\x81":2}' % subject.encode(),
        "nesting 300 deep": b'{"boxId":"%s","title":"t","x":%s%s}' % (subject.encode(), b"[" * 300, b"]" * 300),
        "an unterminated object": b'{"boxId":"%s","title":"t"' % subject.encode(),
    }
    for what, data in bad_data.items():
        malformed(f"structured, data with {what}", structured_text(data, subject))
        batch = b"[" + text(structured()) + b"," + structured_text(data, subject) + b"]"
        malformed(f"batch, its second event's data with {what}", batch, BATCH)
    for what in ["a trailing comma", "a key twice", "a raw line break in a string", "a lone surrogate",
                 "bytes that are not UTF-8", "nesting 300 deep"]:
        expect(f"binary, data with {what}", endpoint.request("POST", "", binary_headers(subject=subject),
                                                             bad_data[what]), 400, "malformed-cloudevent")
    whole = text(structured())
    expect("binary, data after a byte order mark",
           endpoint.request("POST", "", binary_headers(subject=subject),
                            b'\xef\xbb\xbf{"boxId":"%s","title":"t"}' % subject.encode()), 400, "malformed-cloudevent")
    malformed("structured, a byte order mark", b"\xef\xbb\xbf" + whole)
    malformed("structured, UTF-16", whole.decode().encode("utf-16-le"))
    malformed("structured, UTF-16 with its byte order mark", whole.decode().encode("utf-16"))
    malformed("structured, UTF-32", whole.decode().encode("utf-32-le"))
    malformed("structured, a trailing comma at the top", whole[:-1] + b",}")
    malformed("structured, text after the event", whole + b" {}")
    malformed("structured, an array", b"[" + whole + b"]")
    malformed("structured, an empty body", b"")
    malformed("structured, two ids", whole[:-1] + b',"id":"other"}')
    malformed("structured, two types", whole[:-1] + b',"type":"Inventory.ItemMoved"}')
    malformed("structured, a second data written with an escape", whole[:-1] + b',"d\\u0061ta":{}}')
    malformed("structured, 65,000 keys then one twice",
              whole[:-1] + b"".join(b',"k%d":1' % n for n in range(65_000)) + b',"k7":1}')
    malformed("batch, a trailing comma", b"[" + whole + b",]", BATCH)
    malformed("batch, not an array", whole, BATCH)
    expect("batch, empty", post(b"[]", BATCH), 400, "empty-batch")

    # Attributes no store or CloudEvents reader takes.
    bad_attributes = {
        "an extension name with _": {"trace_id": "x"},
        "an extension name in upper case": {"traceId": "x"},
        "an extension name of 21 characters": {"a" * 21: "x"},
        "an Integer beyond 32 bits": {"n": 2 ** 32},
        "a NUL in the id": {"id": "a\u0000b"},
        "U+0085 in the subject": {"subject": "a\u0085b"},
        "DEL in an extension": {"note": "a\u007f"},
        "no id": {"id": None},
        "no source": {"source": None},
        "specversion 0.3": {"specversion": "0.3"},
        "a type that is a number": {"type": 7},
        "a subject that is a number": {"subject": 5},
        "a dataschema that is a Boolean": {"dataschema": True},
        "an Integer written with a fraction": {"n": 1.0},
        "an eventversion beyond 32 bits": {"eventversion": -3_000_000_000},
        "a time after the year 9999": {"time": "+300000-01-01T00:00:00Z"},
        "a time before the year 1": {"time": "0000-12-31T23:59:59Z"},
        "an id of 1,025 bytes": {"id": "i" * 1025},
        "a source of 1,025 bytes": {"source": "/" + "s" * 1024},
    }
    for what, change in bad_attributes.items():
        event = structured()
        for key, value in change.items():
            if value is None:
                del event[key]
            else:
                event[key] = value
        malformed(f"structured, {what}", text(event))
    for what, headers in {
        "binary, %-0 in the subject": {"ce-subject": "a%-0b"},
        "binary, %00 in the id": {"ce-id": "a%00b"},
        "binary, %0A in the subject": {"ce-subject": "a%0Ab"},
        # Header names are case-insensitive: ce-traceId is the extension traceid, which is fine.
        "binary, an extension name with _": {"ce-trace_id": "x"},
        "binary, no ce-id": {"ce-id": ""},
        "binary, a header value beyond printable ASCII": {"ce-note": "caf\u00e9"},
        "binary, ce-datacontenttype beside Content-Type": {"ce-datacontenttype": "text/plain"},
        "binary, an eventversion beyond 32 bits": {"ce-eventversion": "-3000000000"},
    }.items():
        headers = binary_headers(subject=subject, **headers)
        if headers["ce-id"] == "":
            del headers["ce-id"]
        expect(what, endpoint.request("POST", "", headers, b'{"boxId":"%s","title":"t"}' % subject.encode()),
               400, "malformed-cloudevent")

    # JSON data sent as bytes of another type is still read as JSON: the grammar checks it.
    expect("binary, JSON data as text/plain with a key twice",
           endpoint.request("POST", "", binary_headers(subject=subject, **{"Content-Type": "text/plain"}),
                            bad_data["a key twice"]), 400, "malformed-cloudevent")

    # Events the catalog, the data or the access policy refuse.
    # The example's `app` may append boxes only: its access policy refuses another type before the
    # catalog is asked, and tells nothing of what the catalog holds.
    expect("an unknown type", post(text(structured(type="Inventory.Unknown"))), 403, "forbidden")
    expect("data without its title", post(text(structured(data=({"boxId": subject}, subject)))), 422,
           "undecodable-data")
    expect("data that is a string", post(text(structured(data=("box", subject)))), 422, "undecodable-data")
    expect("a subject that is not the data's", post(text(structured(subject=str(uuid.uuid4())))), 422,
           "subject-mismatch")
    expect("no token", endpoint.request("POST", "", {"Content-Type": STRUCTURED}, whole), 401, "unauthenticated")
    expect("a wrong token", post(whole, headers={"Authorization": "Bearer nobody"}), 401, "unauthenticated")
    expect("the Basic scheme", post(whole, headers={"Authorization": "Basic YXBwOmFwcA=="}), 401, "unauthenticated")
    expect("a page without a token", endpoint.request("GET", "", {"Accept": BATCH}), 401, "unauthenticated")
    expect("a reader's POST", post(whole, headers=READER), 403, "forbidden")

    # HTTP as clients expect it.
    expect("text/plain", post(whole, "text/plain"), 415, "unsupported-media-type")
    for method in ["PUT", "DELETE", "PATCH"]:
        expect(method, endpoint.request(method, "", {**APP, "Content-Type": STRUCTURED}, whole), 405,
               "method-not-allowed")
    expect("Accept: application/xml", endpoint.request("GET", "", {**READER, "Accept": "application/xml"}), 406,
           "not-acceptable")
    expect("a misspelt parameter", endpoint.request("GET", "limt=5", page_headers), 400, "unknown-parameter")
    expect("a parameter on a POST", post(whole, query="dryRun=1"), 400, "unknown-parameter")
    expect("a repeated limit", endpoint.request("GET", "limit=1&limit=2", page_headers), 400, "repeated-parameter")
    expect("a negative limit", endpoint.request("GET", "limit=-1", page_headers), 400, "bad-limit")
    expect("a limit that is no number", endpoint.request("GET", "limit=ten", page_headers), 400, "bad-limit")

    # Positions the store cannot read after.
    stream_headers = {**READER, "Accept": "text/event-stream"}
    positions = {
        "garbage": "not-a-token",
        "past the end": forged(first_token, set_numbers(2 ** 52)),
        "negative": forged(first_token, set_numbers(-1)),
        "from another store": forged(first_token, lambda value: value.update(store=str(uuid.uuid4()).upper())),
        "of no JSON": base64.urlsafe_b64encode(b'{"x":').rstrip(b"=").decode(),
    }
    for what, token in positions.items():
        expect(f"a page after a position {what}",
               endpoint.request("GET", urllib.parse.urlencode({"after": token}), page_headers), 400, "bad-position")
        expect(f"a stream from a Last-Event-ID {what}",
               endpoint.request("GET", "", {**stream_headers, "Last-Event-ID": token}), 400, "bad-position")

    # Sizes and time.
    big = b'{"boxId":"%s","title":"%s"}' % (subject.encode(), b"x" * (1 << 20))
    expect("a body over 1 MiB", endpoint.request("POST", "", binary_headers(subject=subject), big), 413, "too-large")
    expect("a chunked body over 1 MiB",
           endpoint.request("POST", "", binary_headers(subject=subject), big, chunked=True), 413, "too-large")
    head = ("POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer app\r\nContent-Type: %s\r\n"
            "Content-Length: %d\r\n\r\n" % (endpoint.path, STRUCTURED, len(whole))).encode()
    status, answer = endpoint.raw(head + whole[:10], wait_before_rest=12, rest=whole[10:], timeout=40)
    sent += 1
    body = answer.partition(b"\r\n\r\n")[2]
    if status != 408 or b"urn:typedevents:problem:body-timeout" not in body:
        failures.append(f"a body sent too slowly: wanted 408 body-timeout, got {answer[:300]!r}")
    else:
        print("ok   a body sent too slowly: 408 body-timeout")
    # What Hummingbird answers before the endpoint sees it (the article says so): a bare 400, or
    # the connection closed.
    status, answer = endpoint.raw(b"GET %s HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n"
                                  % (endpoint.path.encode(), b"a" * 200_000))
    sent += 1
    if status not in (400, None):
        failures.append(f"a header block of 200 KB: wanted 400 or a closed connection, got {answer[:300]!r}")
    else:
        print(f"ok   a header block of 200 KB: {status or 'closed'}")

    # Good events in every mode, one with a lower-case UUID subject: answered 201 and served.
    good = []
    for mode in ["structured", "batch", "binary", "lower-case subject"]:
        data, box_subject = box(title=f"good {mode}")
        event = structured(data=(data, box_subject))
        if mode == "structured":
            answer = post(text(event))
        elif mode == "batch":
            second = structured(data=box(title="good batch 2"))
            answer = post(text([event, second]), BATCH)
            good.append(second["id"])
        elif mode == "binary":
            answer = endpoint.request("POST", "", binary_headers(event["id"], box_subject), text(data))
        else:
            event["subject"] = box_subject.lower()
            event["data"]["boxId"] = box_subject.lower()
            answer = post(text(event))
        good.append(event["id"])
        if answer[0] != 201:
            failures.append(f"a good {mode} event: wanted 201, got {answer[0]} {answer[2][:300]!r}")

    # Nothing else appended, the server still serving, everything served strict.
    after, _ = everything()
    appended = [event for event in after[len(before):]]
    if [event["id"] for event in after[: len(before)]] != [event["id"] for event in before]:
        failures.append("the events before the bad requests changed")
    if sorted(event["id"] for event in appended) != sorted(good):
        failures.append(f"appended {[event['id'] for event in appended]}, wanted only {good}")

    # A stream from the beginning: every data line strict, and every event of the pages in it.
    expected = {event["id"] for event in after}
    seen = set()
    connection = http.client.HTTPConnection(endpoint.host, endpoint.port, timeout=30)
    connection.request("GET", endpoint.path, headers=stream_headers)
    response = connection.getresponse()
    if response.status != 200:
        failures.append(f"the stream answered {response.status}")
    else:
        deadline = time.monotonic() + 60
        while not expected <= seen and time.monotonic() < deadline:
            # The response's own readline takes the chunked framing off; a chunk may end
            # anywhere in a line (the server ends each piece in a chunk of its own).
            line = response.readline()
            if not line:
                break
            if line.startswith(b"data:"):
                value = strict(line[5:].strip())
                if not isinstance(value, dict):
                    failures.append(f"a stream's data line is not strict JSON: {line[:300]!r}")
                    break
                seen.add(value.get("id"))
    connection.close()
    if not expected <= seen:
        failures.append(f"the stream did not send {sorted(expected - seen)[:10]}")

    print(f"{sent} bad requests; {len(before)} events before, {len(appended)} appended by "
          f"{len(good)} good ones; {len(after)} in pages and {len(seen)} in a stream, all strict JSON")
    for failure in failures:
        print("failed: " + failure, file=sys.stderr)
    if sent <= 100:
        print(f"failed: only {sent} bad requests (EventsToEveryClient.md promises more than 100)", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
