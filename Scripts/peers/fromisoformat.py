"""Reads RFC 3339 timestamps, one a line, with datetime.fromisoformat and prints the
microseconds since 1970 of each, or "error <message>"."""
import sys
from datetime import datetime, timezone

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
for line in sys.stdin:
    text = line.strip()
    try:
        moment = datetime.fromisoformat(text)
        delta = moment - EPOCH
        print((delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds)
    except ValueError as error:
        print("error", error)
