#!/usr/bin/env python3
"""Writes synthetic event schemas for the benchmarks: N events of 10 fields each.

Usage: make-schemas.py EVENTS OUTPUT_DIR [--files K] [--naive-swift]

The events use a nested value type, an enum, a strong ID, optionals, arrays and defaults, so the
generated code exercises every path of the generator. With --files K the events are spread over
K schema files (one output file each). With --naive-swift it writes, instead, the shape people
write by hand (synthesized Codable, `as?` casts, one enum and one `switch` over every event) as
the baseline of the compile-cost benchmark.
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


NAIVE_TYPES = ["ItemID", "String", "Int", "Double", "Bool", "Date", "Money", "Status", "[String]", "String?"]


def naive_swift(count):
    """The shape people write by hand: synthesized Codable, `as?` casts, one big switch."""
    out = [
        "import Foundation",
        "",
        "public struct ItemID: Codable, Hashable, Sendable { public var rawValue: String }",
        "public enum Status: String, Codable, Hashable, Sendable { case active, paused, done }",
        "public struct Money: Codable, Hashable, Sendable { public var amount: Decimal; public var currency: String }",
        "",
    ]
    for number in range(count):
        names = ["id"] + [f"field{i}" for i in range(1, 10)]
        out.append(f"public struct Event{number}: Codable, Hashable, Sendable {{")
        for name, type_name in zip(names, NAIVE_TYPES):
            out.append(f"  public var {name}: {type_name}")
        out.append("  public init?(userInfo: [AnyHashable: Any]) {")
        conditions = []
        for name, type_name in zip(names, NAIVE_TYPES):
            if type_name == "ItemID":
                conditions.append(f'let {name} = (userInfo["{name}"] as? String).map(ItemID.init(rawValue:))')
            elif type_name == "Money":
                conditions.append(f'let {name}Info = userInfo["{name}"] as? [String: Any], let {name}Amount = ({name}Info["amount"] as? String).flatMap({{ Decimal(string: $0) }}), let {name}Currency = {name}Info["currency"] as? String')
            elif type_name == "Status":
                conditions.append(f'let {name} = (userInfo["{name}"] as? String).flatMap(Status.init(rawValue:))')
            elif type_name == "String?":
                continue
            else:
                conditions.append(f'let {name} = userInfo["{name}"] as? {type_name}')
        out.append("    guard " + ",\n      ".join(conditions) + " else { return nil }")
        for name, type_name in zip(names, NAIVE_TYPES):
            if type_name == "Money":
                out.append(f"    self.{name} = Money(amount: {name}Amount, currency: {name}Currency)")
            elif type_name == "String?":
                out.append(f'    self.{name} = userInfo["{name}"] as? String')
            else:
                out.append(f"    self.{name} = {name}")
        out.append("  }")
        out.append("}")
        out.append("")
    out.append("public enum AnyEvent: Sendable {")
    for number in range(count):
        out.append(f"  case event{number}(Event{number})")
    out.append("")
    out.append("  public static func decode(name: String, from data: Data) throws -> AnyEvent? {")
    out.append("    let decoder = JSONDecoder()")
    out.append("    switch name {")
    for number in range(count):
        out.append(f'    case "Event{number}": return .event{number}(try decoder.decode(Event{number}.self, from: data))')
    out.append("    default: return nil")
    out.append("    }")
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("events", type=int)
    parser.add_argument("output")
    parser.add_argument("--files", type=int, default=1)
    parser.add_argument("--naive-swift", action="store_true", help="write the hand-written shape as Swift instead")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    if args.naive_swift:
        with open(os.path.join(args.output, "Naive.swift"), "w") as handle:
            handle.write(naive_swift(args.events))
        return
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
