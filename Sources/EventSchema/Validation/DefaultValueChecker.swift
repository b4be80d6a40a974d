/// Checks a field's `default:` against the field's type and converts it to a ``DefaultValue``.
struct DefaultValueChecker {
  /// The cases of each enum type of the run, by type name.
  let enumCases: [String: [EnumCase]]

  func check(_ literal: Located<Literal>, against type: FieldType, log: inout DiagnosticLog) -> DefaultValue? {
    let at = literal.location
    switch type {
    case .optional(let wrapped):
      if case .null = literal.value { return DefaultValue.none }
      return check(literal, against: wrapped, log: &log)
    case .array(let element):
      guard case .sequence(let items) = literal.value else {
        return mismatch(literal, type, log: &log)
      }
      let values = items.map { check($0, against: element, log: &log) }
      return values.contains { $0 == nil } ? nil : .array(values.compactMap { $0 })
    case .dictionary(let valueType):
      guard case .mapping(let entries) = literal.value else {
        return mismatch(literal, type, log: &log)
      }
      var result: [DefaultValue.DictionaryEntry] = []
      var seen: Set<String> = []
      for entry in entries {
        guard let key = entry.key.value else {
          log.error("keys of a dictionary default are strings", at: entry.key.location)
          return nil
        }
        guard seen.insert(key).inserted else {
          log.error("duplicate key `\(key)` in the default value", at: entry.key.location)
          return nil
        }
        guard let value = check(entry.value, against: valueType, log: &log) else { return nil }
        result.append(.init(key: key, value: value))
      }
      return .dictionary(result)
    case .named(let name, .enumeration):
      guard case .scalar(let text, _) = literal.value else { return mismatch(literal, type, log: &log) }
      let cases = enumCases[name] ?? []
      if let match = cases.first(where: { $0.name == text }) ?? cases.first(where: { $0.rawValue == text }) {
        return .enumCase(match.name)
      }
      let hint = Suggestions.hint(for: text, among: cases.map(\.name))
      log.error("`\(text)` is not a case of `\(name)`\(hint)", at: at)
      return nil
    case .named(_, .wrapper(let builtin)):
      return check(literal, against: .builtin(builtin), log: &log).map { .wrapped($0) }
    case .named(let name, .record), .named(let name, .external), .named(let name, .choice):
      log.error("fields of type `\(name)` cannot have a default; make the field optional instead", at: at)
      return nil
    case .builtin(let builtin):
      return check(literal, against: builtin, log: &log)
    }
  }

  private func check(
    _ literal: Located<Literal>, against builtin: BuiltinType, log: inout DiagnosticLog
  ) -> DefaultValue? {
    let type = FieldType.builtin(builtin)
    guard case .scalar(let text, let plain) = literal.value else {
      return mismatch(literal, type, log: &log)
    }
    switch builtin {
    case .string:
      return .string(text)
    case .bool:
      guard plain, text == "true" || text == "false" else { return mismatch(literal, type, log: &log) }
      return .bool(text == "true")
    case .double, .float:
      // A Float default is spelled `Float(text)`: it must be finite at that width too.
      let finite = builtin == .float ? Float(text)?.isFinite : Double(text)?.isFinite
      guard plain, finite == true, !text.hasPrefix("0x") else {
        return mismatch(literal, type, log: &log)
      }
      return .floatingPoint(text)
    case .decimal:
      guard let (significand, exponent) = Self.decimalParts(text) else {
        return mismatch(literal, type, log: &log)
      }
      return .decimal(significand: significand, exponent: exponent)
    case .uuid:
      guard Self.isUUID(text) else { return mismatch(literal, type, log: &log) }
      return .uuid(text.uppercased())
    case .date, .url, .data:
      log.error(
        "`\(builtin.swiftName)` fields cannot have a default; make the field optional instead", at: literal.location)
      return nil
    default:
      guard plain, let bounds = builtin.integerBounds, Self.isInteger(text) else {
        return mismatch(literal, type, log: &log)
      }
      let fits =
        text.hasPrefix("-")
        ? Int64(text).map { $0 >= bounds.min } ?? false
        : UInt64(text).map { $0 <= bounds.max } ?? false
      guard fits else {
        log.error("`\(text)` is out of range for `\(builtin.swiftName)`", at: literal.location)
        return nil
      }
      return .integer(text)
    }
  }

  private func mismatch(_ literal: Located<Literal>, _ type: FieldType, log: inout DiagnosticLog) -> DefaultValue? {
    let found: String
    switch literal.value {
    case .null: found = "null"
    case .scalar(let text, let plain): found = plain ? "`\(text)`" : "the string \"\(text)\""
    case .sequence: found = "a sequence"
    case .mapping: found = "a mapping"
    }
    log.error("default value \(found) does not fit type `\(type)`", at: literal.location)
    return nil
  }

  static func isInteger(_ text: String) -> Bool {
    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// `-12.50` → (-1250, -2). Nil when not a plain decimal or when the significand exceeds 64 bits.
  static func decimalParts(_ text: String) -> (Int64, Int)? {
    let negative = text.hasPrefix("-")
    let unsigned = negative ? String(text.dropFirst()) : text
    let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
    else {
      return nil
    }
    let fraction = parts.count == 2 ? String(parts[1]) : ""
    guard let magnitude = Int64(String(parts[0]) + fraction) else { return nil }
    return (negative ? -magnitude : magnitude, -fraction.count)
  }

  static func isUUID(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }
}
