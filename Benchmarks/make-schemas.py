#!/usr/bin/env python3
"""Writes synthetic event schemas for the benchmarks: N events of 10 fields each.

Usage: make-schemas.py EVENTS OUTPUT_DIR [--files K] [--naive-swift] [--edit N]

The events use a nested value type, an enum, a strong ID, optionals, arrays and defaults, so the
generated code exercises every path of the generator. With --files K the events are spread over
K schema files. With --naive-swift it writes, instead, the shape people write by hand
(synthesized Codable, `as?` casts, one enum and one `switch` over every event) as the baseline of
the compile-cost benchmark, split into as many Swift files as `eventgen` writes for the same
schemas (one per schema file), so that both shapes give the compiler the same parallelism.

--edit N adds an optional field `extraN: String?` to the middle event, in the schema or in the
naive Swift alike: the "edit one event" of the rebuild benchmark. A file is written only when
its bytes change, so an edit touches one file, as a person's edit does.
"""
import argparse
import os

FIELD_TYPES = [
    "ItemID", "String", "Int", "Double", "Bool", "Date", "Money", "Status", '"[String]"', '"String?"',
]


def schema(first, count, index, with_types, edited=None, edit=0):
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
        if number == edited and edit:
            lines.append(f'      extra{edit}: "String?"')
    return "\n".join(lines) + "\n"


NAIVE_TYPES = ["ItemID", "String", "Int", "Double", "Bool", "Date", "Money", "Status", "[String]", "String?"]


def naive_event(number, edit):
    """One hand-written event: synthesized Codable, a failable `userInfo` init of `as?` casts."""
    names = ["id"] + [f"field{i}" for i in range(1, 10)]
    out = [f"public struct Event{number}: Codable, Hashable, Sendable {{"]
    for name, type_name in zip(names, NAIVE_TYPES):
        out.append(f"  public var {name}: {type_name}")
    if edit:
        out.append(f"  public var extra{edit}: String?")
    # Both directions, as the generated code has: a userInfo encoder, then the decoder.
    out.append("  public var userInfo: [AnyHashable: Any] {")
    out.append("    var info: [AnyHashable: Any] = [")
    for name, type_name in zip(names, NAIVE_TYPES):
        if type_name == "ItemID":
            out.append(f'      "{name}": {name}.rawValue,')
        elif type_name == "Money":
            out.append(f'      "{name}": ["amount": {name}.amount.description, "currency": {name}.currency] as [String: Any],')
        elif type_name == "Status":
            out.append(f'      "{name}": {name}.rawValue,')
        elif type_name != "String?":
            out.append(f'      "{name}": {name},')
    out.append("    ]")
    for name, type_name in zip(names, NAIVE_TYPES):
        if type_name == "String?":
            out.append(f'    if let {name} {{ info["{name}"] = {name} }}')
    if edit:
        out.append(f'    if let extra{edit} {{ info["extra{edit}"] = extra{edit} }}')
    out.append("    return info")
    out.append("  }")
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
        elif name == "field2":
            continue  # has a default, as in the schemas
        else:
            conditions.append(f'let {name} = userInfo["{name}"] as? {type_name}')
    out.append("    guard " + ",\n      ".join(conditions) + " else { return nil }")
    for name, type_name in zip(names, NAIVE_TYPES):
        if type_name == "Money":
            out.append(f"    self.{name} = Money(amount: {name}Amount, currency: {name}Currency)")
        elif type_name == "String?":
            out.append(f'    self.{name} = userInfo["{name}"] as? String')
        elif name == "field2":
            out.append(f'    self.{name} = userInfo["{name}"] as? Int ?? {number}')
        else:
            out.append(f"    self.{name} = {name}")
    if edit:
        out.append(f'    self.extra{edit} = userInfo["extra{edit}"] as? String')
    out.append("  }")
    out.append("}")
    out.append("")
    return out


def naive_swift(count, files, edited=None, edit=0):
    """The shape people write by hand, as {file name: text}: the shared types, the events spread
    evenly over `files` files, and one enum with one big `switch` in the first."""
    head = [
        "import Foundation",
        "",
        "public struct ItemID: Codable, Hashable, Sendable { public var rawValue: String }",
        "public enum Status: String, Codable, Hashable, Sendable { case active, paused, done }",
        "public struct Money: Codable, Hashable, Sendable { public var amount: Decimal; public var currency: String }",
        "",
        "public enum AnyEvent: Sendable {",
    ]
    for number in range(count):
        head.append(f"  case event{number}(Event{number})")
    head.append("")
    head.append("  public static func decode(name: String, from data: Data) throws -> AnyEvent? {")
    head.append("    let decoder = JSONDecoder()")
    head.append("    switch name {")
    for number in range(count):
        head.append(f'    case "Event{number}": return .event{number}(try decoder.decode(Event{number}.self, from: data))')
    head.append("    default: return nil")
    head.append("    }")
    head.append("  }")
    head.append("}")
    head.append("")
    per_file = -(-count // files)
    texts = {}
    for index in range(files):
        out = list(head) if index == 0 else ["import Foundation", ""]
        for number in range(index * per_file, min(count, (index + 1) * per_file)):
            out += naive_event(number, edit if number == edited else 0)
        texts[f"Naive{index}.swift"] = "\n".join(out) + "\n"
    return texts


def write_if_changed(path, text):
    """Writes `text` unless the file already holds it, so that unchanged files keep their mtime."""
    try:
        with open(path) as handle:
            if handle.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w") as handle:
        handle.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("events", type=int)
    parser.add_argument("output")
    parser.add_argument("--files", type=int, default=1)
    parser.add_argument("--naive-swift", action="store_true", help="write the hand-written shape as Swift instead")
    parser.add_argument("--edit", type=int, default=0, help="add the optional field extraN to the middle event")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    edited = args.events // 2
    if args.naive_swift:
        # eventgen writes one Swift file per schema file: the naive shape gets as many.
        for name, text in naive_swift(args.events, args.files, edited, args.edit).items():
            write_if_changed(os.path.join(args.output, name), text)
        return
    per_file = -(-args.events // args.files)
    first = 0
    for index in range(args.files):
        count = min(per_file, args.events - first)
        if count <= 0:
            break
        path = os.path.join(args.output, f"Bench{index}.events.yaml")
        write_if_changed(path, schema(first, count, index, index == 0, edited, args.edit))
        first += count


if __name__ == "__main__":
    main()
