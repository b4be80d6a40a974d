import Foundation
import Testing

@testable import TypedEvents

/// A type whose property-list form is not itself, as an `external:` type's may be.
private struct Code: PropertyListConvertible, Equatable {
  var raw: String
  var propertyListValue: Any { raw }
  init(_ raw: String) { self.raw = raw }
  init(propertyListValue value: Any) throws(UserInfoDecodingError) {
    guard let raw = value as? String else { throw .typeMismatch(expected: "Code (a string)", found: value) }
    self.raw = raw
  }
}

@Suite("Arrays and dictionaries in userInfo")
struct PropertyListContainerTests {
  @Test func containersOfPlainValuesTravelAsTheyAreAndRoundTrip() throws {
    let strings: [[String]] = [[], ["a", "b"]]
    #expect(type(of: strings.propertyListValue) == [[String]].self)
    #expect(try [[String]](propertyListValue: strings.propertyListValue) == strings)
    let counts: [String: [Int]] = ["empty": [], "some": [1, 2]]
    #expect(type(of: counts.propertyListValue) == [String: [Int]].self)
    #expect(try [String: [Int]](propertyListValue: counts.propertyListValue) == counts)
    // A property list, as an Objective-C observer or a file would take it.
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["s": strings.propertyListValue, "c": counts.propertyListValue], format: .binary, options: 0)
    let back = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect(try [[String]](propertyListValue: try #require(back["s"])) == strings)
    #expect(try [String: [Int]](propertyListValue: try #require(back["c"])) == counts)
  }

  @Test func containersOfOtherValuesAreConvertedElementByElement() throws {
    let amounts = [Decimal(string: "12.50") ?? 0]
    #expect((amounts.propertyListValue as? [Any])?.first as? String == "12.5")
    let codes = [Code("a")]
    #expect((codes.propertyListValue as? [Any])?.first as? String == "a")
    #expect(try [Code](propertyListValue: codes.propertyListValue) == codes)
    let sparse: [Int?] = [1, nil]
    #expect(try [Int?](propertyListValue: sparse.propertyListValue) == sparse)
  }

  @Test func aNativeArrayOfValuesThatAreNotPropertyListsIsRefused() {
    // Posted by hand: not a property list. Only types that are their own form pass whole.
    #expect(throws: UserInfoDecodingError.self) { try [Code](propertyListValue: [Code("a")]) }
    #expect(throws: UserInfoDecodingError.self) { try [Int?](propertyListValue: [1, nil] as [Int?]) }
    #expect(throws: UserInfoDecodingError.self) { try [String: Code](propertyListValue: ["k": Code("a")]) }
  }

  @Test func aBooleanNeverPassesAsAnInteger() {
    #expect(throws: UserInfoDecodingError.self) { try [Int](propertyListValue: [true] as [Any]) }
    #expect(throws: UserInfoDecodingError.self) {
      try [String: Int](propertyListValue: ["k": NSNumber(value: true)] as [String: Any])
    }
  }

  @Test func aLargeUserInfoIsReadToo() throws {
    // Over the reader's linear-search limit: the dictionary path.
    var info: [AnyHashable: Any] = [:]
    for index in 0..<40 { info["key\(index)"] = index }
    info[7] = "not a string key"
    let reader = UserInfoReader(info)
    #expect(try reader.decode(Int.self, forKey: "key39") == 39)
    #expect(try reader.decodeIfPresent(Int.self, forKey: "absent") == nil)
    let small = UserInfoReader(["a": 1, 2: "b"] as [AnyHashable: Any])
    #expect(try small.decode(Int.self, forKey: "a") == 1)
  }
}
