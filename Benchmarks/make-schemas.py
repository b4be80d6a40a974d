#!/usr/bin/env python3
"""Writes synthetic event schemas for the benchmarks: N events of 10 fields each.

Usage: make-schemas.py EVENTS OUTPUT_DIR [--files K] [--shape typed|naive]

The events use a nested value type, an enum, a strong ID, optionals, arrays and defaults, so the
generated code exercises every path of the generator. With --files K the events are spread over
K schema files (one output file each).
"""
import argparse
import os

FIELD_TYPES = [
    "ItemID", "String", "Int", "Double", "Bool", "Date", "Money", "Status", '"[String]"', '"String?"',
]


def schema(first, count, index, with_types):
    lines = [f"namespace: Bench{index}", "version: 1", ""]
    if with_types:
        lines += [
            "types:",
            "  ItemID:",
            "    wraps: String",
            "  Status:",
            "    enum: [active, paused, done]",
            "  Money:",
            "    fields:",
            "      amount: Decimal",
            "      currency: String",
            "",
        ]
    lines.append("events:")
    for number in range(first, first + count):
        lines.append(f"  Event{number}:")
        lines.append("    subject: id")
        lines.append("    fields:")
        for field, type_name in enumerate(FIELD_TYPES):
            name = "id" if field == 0 else f"field{field}"
            if field == 2:
                lines.append(f"      {name}:\n        type: Int\n        default: {number}")
            else:
                lines.append(f"      {name}: {type_name}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("events", type=int)
    parser.add_argument("output")
    parser.add_argument("--files", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    per_file = -(-args.events // args.files)
    first = 0
    for index in range(args.files):
        count = min(per_file, args.events - first)
        if count <= 0:
            break
        path = os.path.join(args.output, f"Bench{index}.events.yaml")
        with open(path, "w") as handle:
            handle.write(schema(first, count, index, with_types=index == 0))
        first += count


if __name__ == "__main__":
    main()
