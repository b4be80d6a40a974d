/// A position in a schema file, 1-based, as editors and compilers count.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The path of the file as it was given to the run.
  public var file: String
  /// The line, starting at 1.
  public var line: Int
  /// The column in characters, starting at 1.
  public var column: Int

  /// Creates a location.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// The location `offset` characters to the right on the same line.
  public func advanced(by offset: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column + offset)
  }

  /// `file:line:column`, the form SwiftPM, Xcode and editors make clickable.
  public var description: String { "\(file):\(line):\(column)" }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
  }
}
