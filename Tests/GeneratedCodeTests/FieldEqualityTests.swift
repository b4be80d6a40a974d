import Foundation
import Testing
@_spi(Generated) import TypedEvents

/// A conformance whose fields depend on its values: the stack comparison sees fields of other
/// types at the same position and must fall back to the boxed one, and still be right.
private struct Shifting: FieldCodable {
  var flag: Bool
  var text: String

  init(flag: Bool, text: String) {
    self.flag = flag
    self.text = text
  }

  init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
    flag = try reader.decode(Bool.self, forKey: "flag")
    text = try reader.decode(String.self, forKey: "text")
  }

  func write<Writer: FieldWriter>(fields writer: inout Writer) {
    if flag {
      writer.encode(text, forKey: "text")
    } else {
      writer.encode(flag, forKey: "flag")
      writer.encode(text, forKey: "text")
    }
  }
}

/// Many one-byte fields: with a type identity before each, they do not fit the stack buffer.
private struct Wide: FieldCodable {
  var bits: [Bool]

  init(bits: [Bool]) {
    self.bits = bits
  }

  init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
    bits = try reader.decode([Bool].self, forKey: "bits")
  }

  func write<Writer: FieldWriter>(fields writer: inout Writer) {
    for (index, bit) in bits.enumerated() { writer.encode(bit, forKey: "b\(index)") }
  }
}

@Suite("The runtime's field-by-field ==")
struct FieldEqualityTests {
  @Test func fieldsOfOtherTypesAtTheSamePositionFallBackAndCompareRight() {
    let a = Shifting(flag: true, text: "x")
    let b = Shifting(flag: false, text: "x")
    #expect(a != b)
    #expect(b != a)
    #expect(a == Shifting(flag: true, text: "x"))
    #expect(a != Shifting(flag: true, text: "y"))
  }

  @Test func fieldsThatDoNotFitTheStackFallBackAndCompareRight() {
    var bits = [Bool](repeating: false, count: 500)
    let zeros = Wide(bits: bits)
    bits[499] = true
    let last = Wide(bits: bits)
    #expect(zeros == Wide(bits: [Bool](repeating: false, count: 500)))
    #expect(zeros != last)
    #expect(zeros != Wide(bits: [Bool](repeating: false, count: 499)))
  }

  /// Every field of a value with references (strings, arrays, classes inside URL) is released
  /// after a comparison: a weakly held object dies with its last strong reference.
  @Test func stashedFieldsAreReleased() {
    final class Token: Hashable, Codable, PropertyListConvertible, @unchecked Sendable {
      static func == (lhs: Token, rhs: Token) -> Bool { true }
      func hash(into hasher: inout Hasher) {}
      init() {}
      var propertyListValue: Any { 0 }
      init(propertyListValue value: Any) throws(UserInfoDecodingError) {}
    }
    struct Holder: FieldCodable {
      var token: Token
      var name: String
      init(token: Token, name: String) {
        self.token = token
        self.name = name
      }
      init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
        token = try reader.decode(Token.self, forKey: "token")
        name = try reader.decode(String.self, forKey: "name")
      }
      func write<Writer: FieldWriter>(fields writer: inout Writer) {
        writer.encode(token, forKey: "token")
        writer.encode(name, forKey: "name")
      }
    }
    weak var watched: Token?
    do {
      let token = Token()
      watched = token
      let holder = Holder(token: token, name: "n")
      #expect(holder == Holder(token: Token(), name: "n"))
      #expect(holder != Holder(token: token, name: "m"))
    }
    #expect(watched == nil)
  }
}
