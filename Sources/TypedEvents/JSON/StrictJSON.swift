import Foundation

/// The one JSON grammar of the runtime: RFC 8259 exactly, in UTF-8, with no key repeated in any
/// object, within ``JSONLimits``.
///
/// Every byte that enters the runtime as JSON (a CloudEvent in any content mode, a batch, an
/// envelope's payload in ``EventEnvelope/validate()``, a line of an ``EventLog``, a row of a
/// store) is checked by this grammar before anything else reads it; `JSONDecoder` only maps
/// bytes it has accepted, and Foundation's parsers, which accept more (a trailing comma, a byte
/// order mark, UTF-16 and UTF-32), never decide.
///
/// It refuses, saying where:
/// - anything but one JSON value with optional whitespace around it: a trailing comma, a second
///   value, a byte order mark, a comment, `NaN`;
/// - bytes that are not UTF-8 (overlong forms, encoded surrogates, beyond U+10FFFF), UTF-16 and
///   UTF-32 text;
/// - a control character (below U+0020) written raw inside a string, an escape RFC 8259 does
///   not define, and a `\u` escape of a surrogate that is not the first of a pair followed by
///   the second;
/// - a key that appears twice in one object, at any depth, compared as the code points it
///   denotes (`"d\u0061ta"` is `"data"`), as Python, JavaScript and Go compare keys: readers in
///   those languages take the last of two equal keys, Swift's the first, so an object with two
///   says one thing to one reader and another to the next; and two keys that are canonically
///   equivalent (equal in Unicode's NFC, such as `K` and the Kelvin sign `K`), which Swift's
///   `JSONDecoder` takes for one key and other languages for two;
/// - a number beyond the range of a 64-bit float (`1e400`), which most readers cannot hold;
/// - nesting, members and strings beyond `limits`.
///
/// Time and memory are linear in the input: each byte is looked at a bounded number of times,
/// and repeated keys are found with a hash table, seeded anew for each process, in objects of
/// more than a few members.
public enum StrictJSON {
  /// Checks that `json` is one JSON value under the grammar above.
  ///
  /// - Throws: ``JSONSyntaxError``, with the byte offset, line and column of the first byte
  ///   that breaks the grammar.
  public static func check(_ json: Data, limits: JSONLimits = .standard) throws(JSONSyntaxError) {
    let result = json.withUnsafeBytes { raw -> JSONSyntaxError? in
      var scanner = JSONScanner(bytes: raw, limits: limits)
      do throws(JSONSyntaxError) {
        try scanner.wholeValue()
        return nil
      } catch {
        return error
      }
    }
    if let result { throw result }
  }

  /// The members of `json`, an object, checked as ``check(_:limits:)`` checks it, in one pass.
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` that says where `json` breaks the grammar, or that
  ///   it is no object.
  package static func objectMembers(
    _ json: Data, limits: JSONLimits, what: String
  ) throws -> [(key: [UInt8], member: Range<Int>, value: Range<Int>)] {
    let result = json.withUnsafeBytes { raw -> Result<[JSONScanner.ObjectMember], JSONSyntaxError> in
      var scanner = JSONScanner(bytes: raw, limits: limits)
      do throws(JSONSyntaxError) {
        return .success(try scanner.wholeObjectMembers())
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let members): return members.map { ($0.key, $0.member, $0.value) }
    case .failure(let error): throw EventLogError.malformed("\(what) is not JSON at \(error)")
    }
  }

  /// `json`'s members but those named in `leaving`, as an object of their own: what a reader
  /// hands `JSONDecoder` when it takes the bytes of a large member (the data, a payload) as they
  /// are and decodes the rest.
  package static func object(
    of json: Data, members: [(key: [UInt8], member: Range<Int>, value: Range<Int>)], leaving key: String
  ) -> Data {
    var object = Data([UInt8(ascii: "{")])
    let left = Array(key.utf8)
    for member in members where member.key != left {
      if object.count > 1 { object.append(UInt8(ascii: ",")) }
      object.append(json[json.startIndex + member.member.lowerBound..<json.startIndex + member.member.upperBound])
    }
    object.append(UInt8(ascii: "}"))
    return object
  }

  /// ``check(_:limits:)`` for an event's JSON (a CloudEvent, a batch, a payload, a stored
  /// line).
  ///
  /// - Throws: ``EventLogError/malformed(_:)`` that says where `json` breaks the grammar.
  package static func checkEvent(_ json: Data, limits: JSONLimits, what: String = "the JSON text") throws {
    do {
      try check(json, limits: limits)
    } catch {
      throw EventLogError.malformed("\(what) is not JSON at \(error)")
    }
  }
}

/// The caps ``StrictJSON`` puts on one JSON text, so that its cost is bounded by its size
/// alone and no text nests deeper than a reader's stack. Every reader of client bytes takes
/// them from its configuration (the HTTP endpoint's `jsonLimits`); ``standard`` elsewhere.
public struct JSONLimits: Sendable, Hashable {
  /// The deepest nesting of objects and arrays: `[[1]]` is 2 deep, a scalar 0.
  public var maximumDepth: Int
  /// The most members of one object, or elements of one array.
  public var maximumMembers: Int
  /// The longest string, in bytes as written between its quotes (escapes count as written).
  public var maximumStringBytes: Int

  /// Limits from their parts; each must be at least 1.
  public init(maximumDepth: Int = 256, maximumMembers: Int = 100_000, maximumStringBytes: Int = 1 << 20) {
    self.maximumDepth = max(1, maximumDepth)
    self.maximumMembers = max(1, maximumMembers)
    self.maximumStringBytes = max(1, maximumStringBytes)
  }

  /// 256 deep, 100,000 members, strings of 1 MiB.
  public static let standard = JSONLimits()

  /// No cap but the nesting a reader's stack allows: for text a store wrote itself after
  /// checking it with the limits of whoever appended it, which may be above ``standard``.
  package static let stored = JSONLimits(maximumDepth: 10_000, maximumMembers: .max, maximumStringBytes: .max)

  /// These limits for a text that will be served inside `levels` more containers: as deep less
  /// `levels` (at least 1). An event's data is served inside its event's object, and a page
  /// puts the events in an array: a text within `nested(in: 2)` is within these in a page.
  package func nested(in levels: Int) -> JSONLimits {
    var limits = self
    limits.maximumDepth = max(1, maximumDepth - levels)
    return limits
  }
}

/// Where and why a text is not JSON under ``StrictJSON``'s grammar.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What broke the grammar.
  public enum Kind: Sendable, Hashable {
    /// The text ended inside a value, or held none.
    case unexpectedEnd
    /// A byte where the grammar allows none such: what was expected is the `String`.
    case unexpectedByte(UInt8, expected: String)
    /// A `,` right before the `}` or `]` that closes an object or array.
    case trailingComma
    /// The text begins with a byte order mark, which RFC 8259 forbids a writer to add.
    case byteOrderMark
    /// The text is UTF-16 or UTF-32, or holds bytes that are not UTF-8.
    case notUTF8
    /// A control character below U+0020 written raw inside a string: it must be escaped.
    case controlCharacter(UInt8)
    /// A backslash escape RFC 8259 does not define, such as `\q` or `\u12`.
    case invalidEscape
    /// A `\u` escape of a surrogate that is not the first half of a pair followed by the second.
    case unpairedSurrogate
    /// A number outside the grammar: a leading zero, a `.` or an exponent without digits.
    case invalidNumber
    /// A number beyond the range of a 64-bit float.
    case numberOutOfRange
    /// A key that appears earlier in the same object.
    case duplicateKey(String)
    /// Objects and arrays nested deeper than the limit.
    case tooDeep(limit: Int)
    /// An object or array with more members than the limit.
    case tooManyMembers(limit: Int)
    /// A string longer than the limit, in bytes.
    case stringTooLong(limit: Int)
  }

  /// What broke the grammar.
  public var kind: Kind
  /// The offset of the first byte that breaks it, from 0.
  public var offset: Int
  /// The line of that byte, from 1.
  public var line: Int
  /// The column of that byte in its line, from 1, counted in characters (UTF-8 sequences).
  public var column: Int

  /// An error of `kind` at `offset` in `bytes`, whose line and column it counts.
  init(_ kind: Kind, at offset: Int, in bytes: UnsafeRawBufferPointer) {
    self.kind = kind
    self.offset = offset
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    self.line = line
    self.column = column
  }

  /// `line L, column C (byte O): reason`.
  public var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }

  /// The reason alone, without where.
  public var reason: String {
    switch kind {
    case .unexpectedEnd: "the JSON text ends where a value or a closing bracket must come"
    case .unexpectedByte(let byte, let expected): "\(Self.show(byte)) where \(expected) must come"
    case .trailingComma: "a comma before the closing bracket (a trailing comma is not JSON)"
    case .byteOrderMark: "a byte order mark before the JSON text (JSON is UTF-8 without one)"
    case .notUTF8: "bytes that are not UTF-8 (JSON is UTF-8; UTF-16 and UTF-32 are refused)"
    case .controlCharacter(let byte): "a raw control character \(Self.show(byte)) inside a string (escape it)"
    case .invalidEscape: "an escape JSON does not define (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t, \\uXXXX)"
    case .unpairedSurrogate: "a \\u escape of half a surrogate pair without its other half"
    case .invalidNumber: "a number JSON does not allow (a leading zero, or a '.' or exponent without digits)"
    case .numberOutOfRange: "a number beyond the range of a 64-bit float"
    case .duplicateKey(let key): "the key \"\(key)\" a second time in one object"
    case .tooDeep(let limit): "objects and arrays nested more than \(limit) deep"
    case .tooManyMembers(let limit): "an object or array of more than \(limit) members"
    case .stringTooLong(let limit): "a string of more than \(limit) bytes"
    }
  }

  private static func show(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true)
  }
}
