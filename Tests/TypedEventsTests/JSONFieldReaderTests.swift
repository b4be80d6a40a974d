import Foundation
import TestSupport
import Testing

@_spi(Generated) @testable import TypedEvents

/// `EventEnvelope.decode(using:)` reads a generated type's payload without `JSONDecoder`
/// (``JSONFieldReader``) where it is sure to give the same, and leaves the rest to it. Wherever
/// the direct reader answers, it must give what `JSONDecoder` gives; where it is not sure, it
/// must not answer.
@Suite("Event data read without JSONDecoder")
struct JSONFieldReaderTests {
  /// A type with a field of every kind the direct reader reads, coded as generated code is.
  struct Shipment: Event, FieldCodable {
    static var eventName: String { "Test.Shipment" }
    static var eventVersion: Int { 1 }
    var id: ParcelID
    var serial: Serial
    var speed: Speed
    var sentAt: Date
    var weight: Double
    var count: Int32
    var small: UInt8
    var fragile: Bool
    var tags: [String]
    var boxes: [Box]
    var note: String?
    var priority: Int
    var link: URL
    var sizes: [String: Int]

    init(
      id: ParcelID, serial: Serial, speed: Speed, sentAt: Date, weight: Double, count: Int32, small: UInt8,
      fragile: Bool, tags: [String], boxes: [Box], note: String?, priority: Int, link: URL, sizes: [String: Int]
    ) {
      self.id = id
      self.serial = serial
      self.speed = speed
      self.sentAt = sentAt
      self.weight = weight
      self.count = count
      self.small = small
      self.fragile = fragile
      self.tags = tags
      self.boxes = boxes
      self.note = note
      self.priority = priority
      self.link = link
      self.sizes = sizes
    }

    init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
      try reader.decodeConstant("parcel", forKey: "kind", required: true)
      try self.init(
        id: reader.decode(ParcelID.self, forKey: "id"),
        serial: reader.decode(Serial.self, forKey: "serial"),
        speed: reader.decode(Speed.self, forKey: "speed"),
        sentAt: reader.decode(Date.self, forKey: "sentAt"),
        weight: reader.decode(Double.self, forKey: "weight"),
        count: reader.decode(Int32.self, forKey: "count"),
        small: reader.decode(UInt8.self, forKey: "small"),
        fragile: reader.decode(Bool.self, forKey: "fragile"),
        tags: reader.decode([String].self, forKey: "tags"),
        boxes: reader.decode([Box].self, forKey: "boxes"),
        note: reader.decodeIfPresent(String.self, forKey: "note"),
        priority: reader.decode(Int.self, forKey: "priority", default: 3),
        link: reader.decode(URL.self, forKey: "link"),
        sizes: reader.decode([String: Int].self, forKey: "sizes"))
    }

    func write<Writer: FieldWriter>(fields writer: inout Writer) {
      writer.encode("parcel", forKey: "kind")
      writer.encode(id, forKey: "id")
      writer.encode(serial, forKey: "serial")
      writer.encode(speed, forKey: "speed")
      writer.encode(sentAt, forKey: "sentAt")
      writer.encode(weight, forKey: "weight")
      writer.encode(count, forKey: "count")
      writer.encode(small, forKey: "small")
      writer.encode(fragile, forKey: "fragile")
      writer.encode(tags, forKey: "tags")
      writer.encode(boxes, forKey: "boxes")
      writer.encodeIfPresent(note, forKey: "note")
      writer.encode(priority, forKey: "priority")
      writer.encode(link, forKey: "link")
      writer.encode(sizes, forKey: "sizes")
    }
  }

  struct Box: FieldCodable, Sendable {
    var width: Int
    var label: String?

    init(width: Int, label: String?) {
      self.width = width
      self.label = label
    }

    init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
      try self.init(
        width: reader.decode(Int.self, forKey: "width"), label: reader.decodeIfPresent(String.self, forKey: "label"))
    }

    func write<Writer: FieldWriter>(fields writer: inout Writer) {
      writer.encode(width, forKey: "width")
      writer.encodeIfPresent(label, forKey: "label")
    }
  }

  struct ParcelID: StrongIdentifier {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
  }

  struct Serial: StrongIdentifier {
    var rawValue: UUID
    init(rawValue: UUID) { self.rawValue = rawValue }
  }

  /// Open, as generated enums are by default.
  enum Speed: StringEnumeration {
    case slow
    case fast
    case UNRECOGNIZED(String)

    init(rawValue: String) {
      switch rawValue {
      case "slow": self = .slow
      case "fast": self = .fast
      default: self = .UNRECOGNIZED(rawValue)
      }
    }

    var rawValue: String {
      switch self {
      case .slow: "slow"
      case .fast: "fast"
      case .UNRECOGNIZED(let value): value
      }
    }
  }

  /// Frozen: an unknown raw value does not decode.
  enum Frozen: String, StringEnumeration {
    case only
  }

  struct Sealed: Event, FieldCodable {
    static var eventName: String { "Test.Sealed" }
    static var eventVersion: Int { 1 }
    var state: Frozen

    init(state: Frozen) { self.state = state }

    init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
      try self.init(state: reader.decode(Frozen.self, forKey: "state"))
    }

    func write<Writer: FieldWriter>(fields writer: inout Writer) {
      writer.encode(state, forKey: "state")
    }
  }

  static func shipment(_ random: inout SplitMix64) -> Shipment {
    let boxes = (0..<Int.random(in: 0...3, using: &random)).map { index in
      Box(width: Int.random(in: -1_000...1_000, using: &random), label: index.isMultiple(of: 2) ? "box \(index)" : nil)
    }
    return Shipment(
      id: ParcelID(rawValue: "parcel-\(random.next() % 10_000)"),
      serial: Serial(rawValue: UUID()),
      speed: [.slow, .fast, .UNRECOGNIZED("warp")][Int.random(in: 0..<3, using: &random)],
      // Microseconds, as an RFC 3339 timestamp with a fraction carries them.
      sentAt: Date(
        timeIntervalSinceReferenceDate: Double(Int.random(in: 0...900_000_000_000_000, using: &random)) / 1e6),
      weight: Double(Int.random(in: -(1 << 53)...(1 << 53), using: &random)) / 1_000,
      count: Int32.random(in: .min ... .max, using: &random),
      small: UInt8.random(in: 0 ... .max, using: &random),
      fragile: Bool.random(using: &random),
      tags: (0..<Int.random(in: 0...3, using: &random)).map { "tag-\($0) é😀" },
      boxes: boxes,
      note: Bool.random(using: &random) ? "handle with care" : nil,
      priority: Int.random(in: .min ... .max, using: &random),
      link: URL(string: "https://example.com/parcels/\(random.next() % 100)?at=1#top") ?? URL(fileURLWithPath: "/"),
      sizes: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &random)).map { ("size-\($0)", $0) }))
  }

  /// What the direct reader reads; nil where it is not sure.
  static func read<Value: FieldCodable>(_ type: Value.Type, from json: Data) -> Value? {
    try? JSONFieldReader.read(type, from: json)
  }

  static func decodedWithJSONDecoder<Value: Decodable>(_ type: Value.Type, _ json: Data) -> Value? {
    try? EventJSON.decoder.decode(Value.self, from: json)
  }

  @Test func dataAsThisPackageWritesItIsReadDirectlyAsJSONDecoderReadsIt() throws {
    var random = SplitMix64(state: 0x5A1F_0001)
    for _ in 0..<300 {
      let shipment = Self.shipment(&random)
      let json = try EventJSON.encoder.encode(shipment)
      let direct = try #require(
        Self.read(Shipment.self, from: json), "\(String(decoding: json, as: UTF8.self))")
      #expect(direct == shipment)
      #expect(direct == Self.decodedWithJSONDecoder(Shipment.self, json))
    }
  }

  @Test func anEnvelopesDataDecodesTheSameEitherWay() throws {
    var random = SplitMix64(state: 0x5A1F_0002)
    let catalog = EventCatalog([Shipment.self])
    let shipment = Self.shipment(&random)
    let envelope = try EventEnvelope(shipment)
    #expect(Self.read(Shipment.self, from: envelope.payload) != nil)
    #expect(try envelope.decode(using: catalog) as? Shipment == shipment)
    // With an escape, the direct reader is not sure: JSONDecoder reads it.
    var escaped = shipment
    escaped.note = "a \"quoted\" note\n"
    let escapedEnvelope = try EventEnvelope(escaped)
    #expect(Self.read(Shipment.self, from: escapedEnvelope.payload) == nil)
    #expect(try escapedEnvelope.decode(using: catalog) as? Shipment == escaped)
    // And the catalog says which read it: the endpoint parses what JSONDecoder read.
    #expect(try envelope.decodeSayingReader(using: catalog).readDirectly)
    #expect(try !escapedEnvelope.decodeSayingReader(using: catalog).readDirectly)
  }

  @Test func dataWhoseKeysWereCheckedReadsTheSameWithoutALookForRepeats() throws {
    var random = SplitMix64(state: 0x5A1F_0004)
    for _ in 0..<300 {
      let json = try EventJSON.encoder.encode(Self.shipment(&random))
      #expect(
        try JSONFieldReader.read(Shipment.self, from: json, keysChecked: true)
          == JSONFieldReader.read(Shipment.self, from: json))
    }
    // What `keysChecked` leaves out: a repeat, which only a caller that had StrictJSON refuse it
    // may pass over. Unchecked, the reader is not sure, at the top and in a nested object.
    var shipment = Self.shipment(&random)
    shipment.note = "second"
    let json = String(decoding: try EventJSON.encoder.encode(shipment), as: UTF8.self)
    let repeated = Data(json.replacingOccurrences(of: "{\"", with: "{\"note\":\"first\",\"", options: .anchored).utf8)
    #expect(throws: JSONFieldReader.Unsure.self) { try JSONFieldReader.read(Shipment.self, from: repeated) }
    #expect(throws: (any Error).self) { try StrictJSON.check(repeated) }
    #expect(try JSONFieldReader.read(Shipment.self, from: repeated, keysChecked: true).note == "first")
  }

  @Test func aNumberBeyondDoubleThatNoFieldReadsIsLeftToJSONDecoder() throws {
    // JSONSerialization, which `validate()` parses with, refuses a number beyond Double's
    // range; the direct reader must not pass one, even in a key the type ignores.
    var random = SplitMix64(state: 0x5A1F_0005)
    let payload = String(decoding: try EventJSON.encoder.encode(Self.shipment(&random)), as: UTF8.self)
    for (number, parses) in [
      ("1e400", false), ("-1.5E+309", false), ("1" + String(repeating: "0", count: 400), false),
      ("0.001e312", false), ("1e308", true), ("1e-400", true), ("1.5e-00307", true), ("0.001e310", true),
      ("1" + String(repeating: "0", count: 300), true), ("17" + String(repeating: "0", count: 307), true),
      ("18" + String(repeating: "0", count: 307), false), ("1e99999999999999999999", false),
    ] {
      let json = Data(("{\"x\":\(number)," + payload.dropFirst()).utf8)
      #expect(((try? JSONSerialization.jsonObject(with: json)) != nil) == parses, "\(number)")
      #expect((Self.read(Shipment.self, from: json) != nil) == parses, "\(number)")
    }
  }

  /// Payloads the direct reader must leave to `JSONDecoder`, each with what makes it so.
  static let uncommon: [String] = [
    #"{"kind":"parcel","id":"a\"b"}"#,  // an escape
    #"{"id":"p","priority":1.5}"#,  // a fraction
    #"{"id":"p","priority":1e3}"#,  // an exponent
    #"{"id":"p","priority":-0}"#,  // minus zero
    #"{"id":"p","priority":9223372036854775808}"#,  // beyond Int
    #"{"id":"p","id":"q"}"#,  // a repeated key
    #"{"id":"p","a":1,"b":2,"id":"q"}"#,  // a repeated key, not next to the first
    // A repeated key among more keys than are compared one by one, before and after there are that many.
    #"{"id":"p","#
      + (0..<14).map { #""k\#($0)":0,"# }.joined() + #""id":"q"}"#,
    #"{"id":"p","#
      + (0..<14).map { #""k\#($0)":0,"# }.joined() + #""k13":1}"#,
    #"{"id":"p","\u0069d":"q"}"#,  // a key with an escape
    #"{"id":"p","é":1}"#,  // a key not in ASCII
    #"{"id":null}"#,  // null where a value must be
    #"{"note":"x"}"#,  // a missing key
    #"{"id":"p","x":[1,}"#,  // not JSON, in a member not read
    #"{"id":"p"} x"#,  // something after the object
    #"[{"id":"p"}]"#,  // not an object
    "\u{FEFF}{\"id\":\"p\"}",  // a byte order mark
  ]

  @Test func whatItIsNotSureOfIsLeftToJSONDecoder() throws {
    var random = SplitMix64(state: 0x5A1F_0003)
    let good = try #require(
      try JSONSerialization.jsonObject(with: try EventJSON.encoder.encode(Self.shipment(&random))) as? [String: Any])
    /// The good payload with `key` set to the JSON `value`, or removed when `value` is nil.
    func variant(_ key: String, _ value: String?) throws -> Data {
      var members: [String] = []
      for (name, member) in good where name != key {
        let json = try JSONSerialization.data(
          withJSONObject: member, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        members.append("\"\(name)\":" + String(decoding: json, as: UTF8.self))
      }
      if let value { members.append("\"\(key)\":\(value)") }
      return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }
    let unsure: [(String, String?)] = [
      ("kind", #""box""#),  // not the constant
      ("kind", nil),  // a required constant missing
      ("sentAt", "12345"),  // a date as a number, which JSONDecoder takes as seconds
      ("sentAt", #""2026-13-01T00:00:00Z""#),  // not a timestamp
      ("serial", #""not-a-uuid""#),
      ("weight", "1e400"),  // too large for a Double
      ("weight", "1e-400"),  // too small to be told from zero
      ("weight", "2e-324"),
      ("count", "2147483648"),  // beyond Int32
      ("count", "1.0"),  // a fraction for an integer
      ("small", "-1"),
      ("fragile", "1"),
      ("tags", #"["a",1]"#),
      ("boxes", #"[{"width":"1"}]"#),
      ("link", #""""#),  // not a URL
      ("sizes", #"{"a":1,"a":2}"#),  // a repeated key
      ("sizes", #"{"é":1}"#),  // a key not in ASCII
      ("note", #""a\nb""#),
      ("note", #""a","note":"b""#),  // a repeated key
      ("é", "1"),  // a key not in ASCII
      (#"\u0069d"#, #""q""#),  // a key with an escape: `id` again
    ]
    for (key, value) in unsure {
      #expect(
        Self.read(Shipment.self, from: try variant(key, value)) == nil, "\(key): \(value ?? "missing")")
    }
    let sure: [(String, String?)] = [
      ("priority", "null"),  // null takes the default
      ("priority", nil),  // so does a missing key
      ("note", "null"),
      ("weight", "9007199254740993"),  // rounds to 2^53 either way
      ("weight", "-0.1e-310"),  // below the normal range
      ("weight", "12.5E+3"),
      ("weight", "-0.000e-400"),  // zero, written as zero
    ]
    for (key, value) in sure {
      let json = try variant(key, value)
      let direct = Self.read(Shipment.self, from: json)
      #expect(
        direct != nil && direct == Self.decodedWithJSONDecoder(Shipment.self, json), "\(key): \(value ?? "missing")")
    }
    for text in Self.uncommon {
      #expect(Self.read(Shipment.self, from: Data(text.utf8)) == nil, "\(text)")
    }
    #expect(Self.read(Sealed.self, from: Data(#"{"state":"only"}"#.utf8)) == Sealed(state: .only))
    #expect(Self.read(Sealed.self, from: Data(#"{"state":"other"}"#.utf8)) == nil)
  }

  struct Priced: Event, FieldCodable {
    static var eventName: String { "Test.Priced" }
    static var eventVersion: Int { 1 }
    var name: String
    var price: Decimal?

    init(name: String, price: Decimal?) {
      self.name = name
      self.price = price
    }

    init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
      try self.init(
        name: reader.decode(String.self, forKey: "name"), price: reader.decodeIfPresent(Decimal.self, forKey: "price"))
    }

    func write<Writer: FieldWriter>(fields writer: inout Writer) {
      writer.encode(name, forKey: "name")
      writer.encodeIfPresent(price, forKey: "price")
    }
  }

  @Test func aTypeWithAFieldItDoesNotReadGoesToJSONDecoderFromThenOn() throws {
    let decoding = EventDecoding(Priced.self)
    let unpriced = try EventEnvelope(Priced(name: "a", price: nil))
    let priced = try EventEnvelope(Priced(name: "b", price: Decimal(string: "12.30")))
    // Unsure of the data (a missing key) is not unsure of the type.
    let missingName = Data(#"{"price":1}"#.utf8)
    let unsureOfData = #expect(throws: JSONFieldReader.Unsure.self) {
      try JSONFieldReader.read(Priced.self, from: missingName)
    }
    #expect(unsureOfData?.typeNotRead == false)
    #expect(throws: DecodingError.self) { try decoding.decode(missingName, false) }
    #expect(decoding.readsDirectly)
    #expect(Self.read(Priced.self, from: unpriced.payload) == Priced(name: "a", price: nil))
    #expect(try decoding.decode(unpriced.payload, false).event as? Priced == Priced(name: "a", price: nil))
    #expect(decoding.readsDirectly)
    // A Decimal: unsure of the type, which JSONDecoder reads from then on.
    let unsureOfType = #expect(throws: JSONFieldReader.Unsure.self) {
      try JSONFieldReader.read(Priced.self, from: priced.payload)
    }
    #expect(unsureOfType?.typeNotRead == true)
    let pricedDecoded = try decoding.decode(priced.payload, false)
    #expect(pricedDecoded.event as? Priced == Priced(name: "b", price: Decimal(string: "12.30")))
    #expect(!pricedDecoded.readDirectly, "JSONDecoder read it")
    #expect(!decoding.readsDirectly)
    #expect(try decoding.decode(unpriced.payload, false).event as? Priced == Priced(name: "a", price: nil))
    #expect(EventDecoding(Priced.self).readsDirectly, "a new catalog tries again")
    #expect(!EventDecoding(Tick.self).readsDirectly, "a type that is not FieldCodable never does")
  }

  /// A wire key beyond ASCII.
  struct Kelvin: Event, FieldCodable {
    static var eventName: String { "Test.Kelvin" }
    static var eventVersion: Int { 1 }
    var degrees: Int?

    init(degrees: Int?) { self.degrees = degrees }

    init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
      try self.init(degrees: reader.decodeIfPresent(Int.self, forKey: "\u{212A}"))
    }

    func write<Writer: FieldWriter>(fields writer: inout Writer) {
      writer.encodeIfPresent(degrees, forKey: "\u{212A}")
    }
  }

  /// A schema's `additionalProperties`.
  struct Open: Event, FieldCodable {
    static var eventName: String { "Test.Open" }
    static var eventVersion: Int { 1 }
    var others: [String: Int]

    init(others: [String: Int]) { self.others = others }

    init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
      try self.init(others: reader.decodeOtherKeys(Int.self, excluding: []))
    }

    func write<Writer: FieldWriter>(fields writer: inout Writer) {
      writer.encodeOtherKeys(others)
    }
  }

  @Test func aKeyBeyondASCIIAndOtherKeysAreLeftToJSONDecoder() throws {
    // JSONDecoder matches the Kelvin sign with `K`, its canonical equivalent: bytes do not.
    let json = Data(#"{"K":300}"#.utf8)
    #expect(Self.read(Kelvin.self, from: json) == nil)
    #expect(Self.decodedWithJSONDecoder(Kelvin.self, json) == Kelvin(degrees: 300))
    let kelvin = EventDecoding(Kelvin.self)
    #expect(try kelvin.decode(json, false).event as? Kelvin == Kelvin(degrees: 300))
    #expect(!kelvin.readsDirectly)
    let envelope = EventEnvelope(id: "k", time: nil, name: Kelvin.eventName, version: 1, payload: json)
    #expect(try envelope.decode(using: EventCatalog([Kelvin.self])) as? Kelvin == Kelvin(degrees: 300))

    #expect(Self.read(Open.self, from: json) == nil)
    #expect(Self.decodedWithJSONDecoder(Open.self, json) == Open(others: ["K": 300]))
    let open = EventDecoding(Open.self)
    #expect(try open.decode(json, false).event as? Open == Open(others: ["K": 300]))
    #expect(!open.readsDirectly)
  }

  /// Random edits of payloads: wherever the direct reader still answers, it must give what
  /// `JSONDecoder` gives, and `JSONDecoder` must read it too.
  @Test func onEditedDataItAnswersOnlyAsJSONDecoderDoes() throws {
    var random = SplitMix64(state: 0x5A1F_0004)
    var answered = 0
    var tried = 0
    for _ in 0..<40 {
      let document = try EventJSON.encoder.encode(Self.shipment(&random))
      for _ in 0..<100 {
        var bytes = [UInt8](document)
        JSONEdits.edit(&bytes, using: &random)
        let json = Data(bytes)
        tried += 1
        guard let direct = Self.read(Shipment.self, from: json) else { continue }
        answered += 1
        #expect(direct == Self.decodedWithJSONDecoder(Shipment.self, json), "\(String(decoding: json, as: UTF8.self))")
      }
    }
    // The edits leave many payloads readable: the comparison above is not empty.
    #expect(answered > tried / 20, "answered \(answered) of \(tried)")
  }
}
