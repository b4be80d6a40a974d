/// One finding about a schema, located in its file.
///
/// Its ``description`` is `path:line:column: error: message`, the form that SwiftPM and Xcode
/// turn into a clickable diagnostic.
public struct Diagnostic: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Hashable, Sendable {
    /// The schema is invalid; nothing is generated.
    case error
    /// The schema is valid but probably not what was meant.
    case warning
    /// Extra information attached to a run.
    case note
  }

  /// How serious the finding is.
  public var severity: Severity
  /// Where in the schema the finding is.
  public var location: SourceLocation
  /// What is wrong, in one sentence, including a hint where one helps.
  public var message: String

  /// Creates a diagnostic.
  public init(_ severity: Severity, at location: SourceLocation, _ message: String) {
    self.severity = severity
    self.location = location
    self.message = message
  }

  /// `path:line:column: severity: message`.
  public var description: String { "\(location): \(severity.rawValue): \(message)" }

  /// Orders by file, then position, then message, so that a run's output is stable.
  public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
    if lhs.location != rhs.location { return lhs.location < rhs.location }
    return lhs.message < rhs.message
  }
}

/// Collects the diagnostics of one run; every stage appends to it and keeps going.
public struct DiagnosticLog: Sendable {
  /// Everything reported so far, in the order it was reported.
  public private(set) var all: [Diagnostic] = []

  /// Creates an empty log.
  public init() {}

  /// Reports an error.
  public mutating func error(_ message: String, at location: SourceLocation) {
    all.append(Diagnostic(.error, at: location, message))
  }

  /// Reports a warning.
  public mutating func warning(_ message: String, at location: SourceLocation) {
    all.append(Diagnostic(.warning, at: location, message))
  }

  /// Reports a note: what the run did that the reader may want to know, such as a name it gave.
  public mutating func note(_ message: String, at location: SourceLocation) {
    all.append(Diagnostic(.note, at: location, message))
  }

  /// Appends diagnostics reported elsewhere.
  public mutating func append(contentsOf diagnostics: [Diagnostic]) {
    all.append(contentsOf: diagnostics)
  }

  /// Whether any error was reported.
  public var hasErrors: Bool { all.contains { $0.severity == .error } }

  /// The diagnostics sorted by file and position, duplicates removed.
  public var sorted: [Diagnostic] { Array(Set(all)).sorted() }
}
