import EdgeCaseEvents
import Foundation
import SampleEvents
import Testing
import TypedEvents

/// value → userInfo → binary property list → userInfo → value.
func throughPropertyList<E: Event>(_ event: E) throws -> E {
  let data = try PropertyListSerialization.data(fromPropertyList: event.userInfo, format: .binary, options: 0)
  let object = try PropertyListSerialization.propertyList(from: data, format: nil)
  let userInfo = try #require(object as? [AnyHashable: Any])
  return try E(userInfo: userInfo)
}

/// value → JSON → value.
func throughJSON<E: Event>(_ event: E) throws -> E {
  try JSONDecoder().decode(E.self, from: try JSONEncoder().encode(event))
}

@Suite("Generated events: userInfo and JSON round trips")
struct UserInfoRoundTripTests {
  @Test func samplesSurviveAPropertyListRoundTrip() throws {
    #expect(
      try throughPropertyList(ListingCreated(listing: Fixtures.listing)) == ListingCreated(listing: Fixtures.listing))
    #expect(try throughPropertyList(Fixtures.sold) == Fixtures.sold)
    #expect(try throughPropertyList(Fixtures.item) == Fixtures.item)
    #expect(try throughPropertyList(Fixtures.page) == Fixtures.page)
  }

  @Test func edgeCasesSurviveAPropertyListRoundTrip() throws {
    #expect(try throughPropertyList(Fixtures.everything) == Fixtures.everything)
    #expect(try throughPropertyList(Fixtures.nested) == Fixtures.nested)
    #expect(try throughPropertyList(Fixtures.keywords) == Fixtures.keywords)
    #expect(try throughPropertyList(TrickyDefaults()) == TrickyDefaults())
    #expect(try throughPropertyList(Empty()) == Empty())
  }

  @Test func everythingSurvivesJSON() throws {
    #expect(try throughJSON(Fixtures.sold) == Fixtures.sold)
    #expect(try throughJSON(Fixtures.page) == Fixtures.page)
    #expect(try throughJSON(Fixtures.everything) == Fixtures.everything)
    #expect(try throughJSON(Fixtures.nested) == Fixtures.nested)
    #expect(try throughJSON(Fixtures.keywords) == Fixtures.keywords)
    #expect(try throughJSON(TrickyDefaults()) == TrickyDefaults())
    #expect(String(decoding: try JSONEncoder().encode(Empty()), as: UTF8.self) == "{}")
  }

  @Test func equalityAndHashingCoverEveryField() throws {
    let base = Fixtures.keywords
    #expect(base == Fixtures.keywords)
    #expect(Set([base, Fixtures.keywords]).count == 1)
    var info = base.userInfo
    for (key, value) in [("writer", "other" as Any), ("in", 2), ("protocol", "monday"), ("return", "lo w")] {
      info = base.userInfo
      info[key] = value
      let changed = try Keywords(userInfo: info)
      #expect(changed != base, "changing \(key) must make the events unequal")
      #expect(Set([base, changed]).count == 2)
    }
  }

  @Test func aFieldThatCannotBeEncodedFailsTheWholeEncoding() throws {
    let event = Everything(
      string: "s", bool: true, int: 0, int8: 0, int16: 0, int32: 0, int64: 0, uint: 0, uint8: 0, uint16: 0, uint32: 0,
      uint64: 0, double: .nan, float: 0, decimal: 0, date: Date(), uuid: UUID(), url: URL(fileURLWithPath: "/"),
      data: Data())
    // JSON has no NaN: JSONEncoder refuses it by default, and the error reaches the caller.
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(event) }
    // A property list has one: the userInfo round trip keeps it.
    #expect(try throughPropertyList(event).double.isNaN)
  }

  @Test func userInfoHoldsPropertyListValuesWithWireKeys() throws {
    let info = Fixtures.sold.userInfo
    #expect(info["sales_channel"] as? String == "web")
    #expect(info["channel"] == nil)
    #expect(info["id"] as? String == "l-1")
    let price = try #require(info["price"] as? [String: Any])
    #expect(price["amount"] as? String == "120")
    #expect(price["currency"] as? String == "USD")
    #expect(info["soldAt"] as? Date == Fixtures.sold.soldAt)
    #expect(PropertyListSerialization.propertyList(info, isValidFor: .binary))
    let noBuyer = ListingSold(id: ListingID("x"), price: Money(amount: 1, currency: .euro), soldAt: Date())
    #expect(noBuyer.userInfo["buyer"] == nil, "nil is an absent key")
  }

  @Test func decimalsTravelAsTheirExactString() throws {
    let money = Money(amount: Decimal(string: "0.1") ?? 0, currency: .euro)
    let info = ListingSold(id: ListingID("x"), price: money, soldAt: Date()).userInfo
    #expect((info["price"] as? [String: Any])?["amount"] as? String == "0.1")
    #expect(try throughPropertyList(Fixtures.everything).decimal == Decimal(string: "3.14159265358979323846"))
  }

  @Test func unknownEnumValuesSurviveBothRoundTrips() throws {
    var info = ListingCreated(listing: Fixtures.listing).userInfo
    var listing = try #require(info["listing"] as? [String: Any])
    listing["status"] = "on-hold"
    info["listing"] = listing
    let decoded = try ListingCreated(userInfo: info)
    #expect(decoded.listing.status == .UNRECOGNIZED("on-hold"))
    #expect((decoded.userInfo["listing"] as? [String: Any])?["status"] as? String == "on-hold")
    #expect(try throughJSON(decoded).listing.status == .UNRECOGNIZED("on-hold"))
    #expect(try throughPropertyList(decoded).listing.status == .UNRECOGNIZED("on-hold"))
  }

  @Test func missingKeysTakeTheirDefaultsAndUnknownKeysAreIgnored() throws {
    let decoded = try TrickyDefaults(userInfo: ["someday": "ignored"])
    #expect(decoded == TrickyDefaults())
    #expect(decoded.quote == "say \"hi\"\\n\\(x) \t tab é 🎉")
    #expect(decoded.minimum == Int64.min)
    #expect(decoded.money == Decimal(string: "-1234.5678"))
    let json = try JSONDecoder().decode(TrickyDefaults.self, from: Data(#"{"unknown": 1}"#.utf8))
    #expect(json == TrickyDefaults())
  }

  @Test func numbersConvertWhenExact() throws {
    var info = Fixtures.everything.userInfo
    info["int8"] = NSNumber(value: -5)
    info["uint64"] = Int(7)
    info["double"] = Int32(3)
    info["float"] = 0.25
    let decoded = try Everything(userInfo: info)
    #expect(decoded.int8 == -5)
    #expect(decoded.uint64 == 7)
    #expect(decoded.double == 3)
    #expect(decoded.float == 0.25)
  }
}

@Suite("Generated events: userInfo errors")
struct UserInfoErrorTests {
  func error<E: Event>(_ type: E.Type, _ userInfo: [AnyHashable: Any]) -> UserInfoDecodingError? {
    do {
      _ = try E(userInfo: userInfo)
      return nil
    } catch {
      return error
    }
  }

  @Test func aMissingKeyNamesItsPath() {
    var info = Fixtures.sold.userInfo
    info["soldAt"] = nil
    #expect(error(ListingSold.self, info)?.description == "userInfo key `soldAt`: missing")
  }

  @Test func aWrongNestedTypeNamesTheKeyPathExpectedAndFound() {
    var info = Fixtures.sold.userInfo
    info["price"] = ["amount": 12, "currency": 3] as [String: Any]
    let failure = error(ListingSold.self, info)
    #expect(failure?.keyPath == "price.currency")
    #expect(failure?.problem == .typeMismatch(expected: "Currency (a string)", found: "Int"))
  }

  @Test func anUnknownCaseOfAFrozenEnumIsAnError() {
    var info = Fixtures.sold.userInfo
    info["price"] = ["amount": "1", "currency": "JPY"] as [String: Any]
    #expect(
      error(ListingSold.self, info)?.description
        == "userInfo key `price.currency`: expected a case of Currency, found \"JPY\"")
  }

  @Test func errorsInsideArraysNameTheIndex() {
    var info = Fixtures.page.userInfo
    var messages = info["messages"] as? [Any] ?? []
    var first = messages.first as? [String: Any] ?? [:]
    first["sentAt"] = "yesterday"
    messages[0] = first
    info["messages"] = messages
    #expect(
      error(MessagesLoaded.self, info)?.description == "userInfo key `messages[0].sentAt`: expected Date, found String")
  }

  @Test func inexactNumbersAreRefused() {
    var info = Fixtures.everything.userInfo
    info["int8"] = 300
    #expect(
      error(Everything.self, info)?.description == "userInfo key `int8`: expected a number that fits Int8, found 300")
    info = Fixtures.everything.userInfo
    info["int"] = 1.5
    #expect(error(Everything.self, info)?.keyPath == "int")
    info = Fixtures.everything.userInfo
    info["bool"] = 1
    #expect(error(Everything.self, info)?.description == "userInfo key `bool`: expected Bool, found Int")
    info = Fixtures.everything.userInfo
    info["int"] = true
    #expect(error(Everything.self, info)?.keyPath == "int")
  }

  @Test func aMalformedDecimalOrUUIDIsAnError() {
    var info = Fixtures.everything.userInfo
    info["decimal"] = "12abc"
    #expect(
      error(Everything.self, info)?.description == "userInfo key `decimal`: expected a decimal number, found \"12abc\"")
    info = Fixtures.everything.userInfo
    info["uuid"] = "not-a-uuid"
    #expect(error(Everything.self, info)?.description == "userInfo key `uuid`: expected a UUID, found \"not-a-uuid\"")
  }

  @Test func optionalsInsideContainersAreEmptyOrOneElementArrays() throws {
    let event = DeepNesting(levels: [], tokens: [], sparse: [["a": [1, nil, 3], "b": nil], nil])
    let sparse = try #require(event.userInfo["sparse"] as? [Any])
    #expect(sparse.count == 2)
    // nil is [], a value is [value], at every level; a property list has no null.
    #expect((sparse[1] as? [Any])?.isEmpty == true)
    let dictionary = try #require((sparse[0] as? [Any])?.first as? [String: Any])
    #expect((dictionary["b"] as? [Any])?.isEmpty == true)
    let array = try #require(((dictionary["a"] as? [Any])?.first as? [Any]))
    #expect(array.map { ($0 as? [Any])?.count } == [1, 0, 1])
    #expect(try throughPropertyList(event) == event)
    #expect(try throughJSON(event) == event)

    var info = event.userInfo
    info["sparse"] = [[1, 2]]
    #expect(error(DeepNesting.self, info)?.keyPath == "sparse[0]")

    // Defaults with null inside: a nil element, and a key whose value is nil (not a missing key).
    let defaults = try DeepNesting(userInfo: ["levels": [Any](), "tokens": [Any]()])
    #expect(defaults.gaps == [1, nil])
    #expect(defaults.holes.count == 2 && defaults.holes["a"] == .some(nil) && defaults.holes["b"] == 2)
    #expect(try throughPropertyList(defaults) == defaults)
  }
}
