import Foundation

/// An event whose data is bytes rather than JSON: a binary frame (audio, an image, a file) that a
/// contract's message gives as `type: string` with `format: binary`, or with a content type that
/// is not JSON. eventgen generates the conformance.
///
/// Its envelope's ``EventEnvelope/payload`` is the bytes themselves and its
/// ``EventEnvelope/dataContentType`` is ``dataContentType``. Logs and stores keep the bytes as a
/// base64 JSON string; a CloudEvent in JSON carries them as `data_base64`, and in the binary
/// content mode as the body. Its `userInfo` holds them as `Data`; its own `Codable` form (which
/// an envelope does not use) is a base64 string.
public protocol BinaryEvent: Event {
  /// The media type of the bytes, such as `application/octet-stream` or `audio/ogg`.
  static var dataContentType: String { get }
  /// The event whose data is `bytes`.
  init(bytes: Data) throws
  /// The event's data.
  var bytes: Data { get }
}
