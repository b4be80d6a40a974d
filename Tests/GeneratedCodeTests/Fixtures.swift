import EdgeCaseEvents
import Foundation
import SampleEvents
import TypedEvents

/// Sample values of generated events, with every field set to something other than its default.
enum Fixtures {
  static let listing = Listing(
    id: ListingID("l-1"), title: "Bike «vintage»",
    price: Money(amount: Decimal(string: "129.99") ?? 0, currency: .euro),
    status: .active, seller: UserID(UUID()), photos: [URL(string: "https://example.com/a.jpg")].compactMap { $0 },
    location: GeoPoint(latitude: 41.39, longitude: 2.17), attributes: ["size": "M"])

  static let sold = ListingSold(
    id: ListingID("l-1"), price: Money(amount: 120, currency: .dollar),
    soldAt: Date(timeIntervalSince1970: 1_700_000_000.25),
    buyer: UserID(UUID()), channel: "web")

  static let item = ItemProvisioned(
    boxId: BoxID(UUID()),
    item: Item(id: ItemID(UUID()), title: "Screws", quantity: 40, tags: ["hardware", "small"], barcode: nil))

  static let page = MessagesLoaded(
    conversation: ConversationID(42),
    messages: [
      Message(
        id: MessageID("m1"), sender: "ana", text: "Hi 👋", sentAt: Date(timeIntervalSince1970: 1_700_000_000),
        attachments: [
          Attachment(url: URL(fileURLWithPath: "/tmp/a.png"), thumbnail: Data([1, 2, 3]), byteCount: UInt64.max)
        ],
        reactions: ["👍": 2], replyTo: nil, edited: false, editedAt: nil)
    ],
    hasMore: true, loadedIn: 0.25, score: Float.pi)

  static let everything = Everything(
    string: "s", bool: true, int: Int.min, int8: Int8.min, int16: Int16.max, int32: Int32.min, int64: Int64.max,
    uint: UInt.max, uint8: UInt8.max, uint16: UInt16.max, uint32: UInt32.max, uint64: UInt64.max, double: -0.5,
    float: 1.5, decimal: Decimal(string: "3.14159265358979323846") ?? 0,
    date: Date(timeIntervalSinceReferenceDate: -1e9),
    uuid: UUID(), url: URL(string: "https://example.com/path?q=1") ?? URL(fileURLWithPath: "/"), data: Data())

  static let nested = Nested(
    owner: Token(UUID()), optionalArray: [1, 2], arrayOfArrays: [["a"], [], ["b", "c"]],
    dictionaryOfArrays: ["x": [Count(1), Count(2)]], arrayOfDictionaries: [["pi": 3.14], [:]],
    optionalDictionary: ["outer": ["inner": true]],
    shapes: [Shape(name: "square", corners: Count(4), children: [Shape(name: "dot", corners: Count(0))], parent: nil)],
    shapeByName: ["t": Shape(name: "triangle", corners: Count(3), parent: [Shape(name: "root", corners: Count(0))])],
    old: nil)

  static let keywords = Keywords(
    default: "d", in: 1, class: true, protocol: .UNRECOGNIZED("sunday"), return: .max, reader: "r", container: 2,
    encoder: false,
    decoder: true, writer: "w", let: "l", var: 7, `inout`: false)
}
