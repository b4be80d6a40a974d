/// Why a `userInfo` dictionary did not decode: where (a key path such as `price.amount` or
/// `items[2].title`), what was expected, and what was found.
public struct UserInfoDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// One step of a key path.
  public enum PathComponent: Hashable, Sendable {
    /// A dictionary key.
    case key(String)
    /// An array index.
    case index(Int)
  }

  /// What went wrong at the key path.
  public enum Problem: Hashable, Sendable {
    /// The key is missing and the field has no default.
    case missingKey
    /// The value has another type: the expected type and the type found.
    case typeMismatch(expected: String, found: String)
    /// The value has the right type but is not acceptable, such as a number out of range or
    /// an unknown case of a frozen enum.
    case invalidValue(expected: String, found: String)
  }

  /// Where the problem is, from the outermost key.
  public var path: [PathComponent]
  /// What the problem is.
  public var problem: Problem

  /// Creates an error.
  public init(path: [PathComponent] = [], problem: Problem) {
    self.path = path
    self.problem = problem
  }

  /// The key path in dotted form: `price.amount`, `items[2].title`.
  public var keyPath: String {
    var text = ""
    for component in path {
      switch component {
      case .key(let key): text += text.isEmpty ? key : ".\(key)"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  public var description: String {
    let location = path.isEmpty ? "userInfo" : "userInfo key `\(keyPath)`"
    switch problem {
    case .missingKey: return "\(location): missing"
    case .typeMismatch(let expected, let found): return "\(location): expected \(expected), found \(found)"
    case .invalidValue(let expected, let found): return "\(location): expected \(expected), found \(found)"
    }
  }

  /// A type mismatch for `value`, naming its dynamic type.
  public static func typeMismatch(expected: String, found value: Any) -> UserInfoDecodingError {
    UserInfoDecodingError(problem: .typeMismatch(expected: expected, found: String(describing: type(of: value))))
  }

  /// The same error one level further out: `amount` inside `price` becomes `price.amount`.
  @usableFromInline
  func prefixed(by component: PathComponent) -> UserInfoDecodingError {
    var copy = self
    copy.path.insert(component, at: 0)
    return copy
  }
}
