/// A small typed description of the Swift that the generator writes: declarations with their
/// doc comments, and statements inside function bodies. ``SwiftPrinter`` turns it into text;
/// nothing else in the generator writes braces or indentation.
indirect enum Declaration: Equatable {
  /// `struct` or `enum`.
  case type(NominalDecl)
  /// `extension Name: Conformances where … { members }`.
  case `extension`(ExtensionDecl)
  /// A stored or computed property, or a `static` one.
  case property(PropertyDecl)
  /// A function or an initializer: its signature and its body.
  case function(FunctionDecl)
  /// One `case` line of an enum, already spelled (`case euro = "EUR"`).
  case enumCase(doc: [String], text: String)
  /// Plain comment lines (`// …`), for the file header and explanations.
  case comment([String])
  /// A line of code that needs no structure, such as `import Foundation`.
  case line(String)
  /// `#if condition`, the declarations, `#endif`.
  case conditional(String, [Declaration])
}

/// A `struct` or an `enum`.
struct NominalDecl: Equatable {
  enum Kind: String { case `struct`, `enum` }
  var doc: [String] = []
  var attributes: [String] = []
  var modifiers: String
  var kind: Kind
  var name: String
  var conformances: [String] = []
  var members: [Declaration] = []
}

/// An `extension`.
struct ExtensionDecl: Equatable {
  var doc: [String] = []
  /// Attributes on lines of their own, such as `@available(…)`.
  var attributes: [String] = []
  /// Modifiers with a trailing space, such as `nonisolated `.
  var modifiers: String = "nonisolated "
  var type: String
  var conformances: [String] = []
  var whereClause: String?
  var members: [Declaration] = []
}

/// A property.
struct PropertyDecl: Equatable {
  var doc: [String] = []
  var attributes: [String] = []
  /// Access and other modifiers, each followed by a space (`public static `), or empty.
  var modifiers: String
  /// `let` or `var`.
  var keyword: String = "var"
  var name: String
  var type: String
  /// `= value` for stored properties.
  var initializer: String?
  /// The getter's body for computed properties.
  var getter: [Statement]?
}

/// A function or initializer.
struct FunctionDecl: Equatable {
  var doc: [String] = []
  var attributes: [String] = []
  /// Everything before the body: `public init(rawValue: String)`.
  var signature: String
  var body: [Statement]
}

/// A statement inside a body.
indirect enum Statement: Equatable {
  /// One line.
  case line(String)
  /// An opening line as written (`if ready {`, `try self.init(`), the nested statements one
  /// level deeper, and the closing line.
  case block(String, [Statement], close: String = "}")
  /// `switch subject {` with its cases, each label aligned with the `switch` as Swift style has it.
  case `switch`(String, [(label: String, body: [Statement])])

  static func == (lhs: Statement, rhs: Statement) -> Bool {
    switch (lhs, rhs) {
    case (.line(let a), .line(let b)): return a == b
    case (.block(let a, let x, let c), .block(let b, let y, let d)): return a == b && x == y && c == d
    case (.switch(let a, let x), .switch(let b, let y)):
      return a == b && x.map(\.label) == y.map(\.label) && x.map(\.body) == y.map(\.body)
    default: return false
    }
  }
}

/// One generated file: header comment, imports, declarations.
struct SwiftFile: Equatable {
  var header: [String]
  /// Whole import lines, such as `@_spi(Generated) public import TypedEvents`.
  var imports: [String]
  var declarations: [Declaration]
}
