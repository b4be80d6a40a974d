/// JSON Pointer's escapes within one reference token (RFC 6901): `~` is written `~0` and `/`
/// is written `~1`. The AsyncAPI reader and the contract exporter both use them.
public enum JSONPointer {
  /// A key as a pointer token: `a/b~c` → `a~1b~0c`.
  public static func escaped(_ token: String) -> String {
    guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
    var result = ""
    for character in token {
      switch character {
      case "~": result += "~0"
      case "/": result += "~1"
      default: result.append(character)
      }
    }
    return result
  }

  /// A pointer token as a key: `a~1b~0c` → `a/b~c`; a `~` not followed by `0` or `1` is kept.
  public static func unescaped(_ token: String) -> String {
    guard token.contains("~") else { return token }
    var result = ""
    var pendingTilde = false
    for character in token {
      if pendingTilde {
        pendingTilde = false
        switch character {
        case "0": result += "~"
        case "1": result += "/"
        case "~":
          result += "~"
          pendingTilde = true
        default: result += "~" + String(character)
        }
      } else if character == "~" {
        pendingTilde = true
      } else {
        result.append(character)
      }
    }
    return pendingTilde ? result + "~" : result
  }
}
