/// A value stored out of line: what generated code stores for a field whose type contains,
/// by value, the type that holds the field (a tree node's parent, a comment's reply), which
/// Swift cannot lay out inline.
///
/// It has value semantics: copies share the storage, which is never changed; setting the
/// field's property stores a new one. The field's property has the field's own type, and its
/// JSON and `userInfo` are the value's.
@_spi(Generated) public struct Indirect<Value> {
  private final class Storage {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  private let storage: Storage

  /// Stores `value` out of line.
  public init(_ value: Value) {
    storage = Storage(value)
  }

  /// The value stored.
  public var value: Value { storage.value }
}

// The storage is immutable: sharing it between tasks shares only a value of a `Sendable` type.
@_spi(Generated) extension Indirect: @unchecked Sendable where Value: Sendable {}
