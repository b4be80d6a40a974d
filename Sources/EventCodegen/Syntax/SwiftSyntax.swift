/// A small typed description of the Swift that the generator writes: declarations with their
/// doc comments, and statements inside function bodies. ``SwiftPrinter`` turns it into text;
/// nothing else in the generator writes braces or indentation. Names from other modules are
/// ``TypeReference``s, or ``Code`` that carries them, so that ``Imports`` reads which modules a
/// file uses from the tree.
indirect enum Declaration: Equatable {
  /// `struct` or `enum`.
  case type(NominalDecl)
  /// `extension Name: Conformances where … { members }`.
  case `extension`(ExtensionDecl)
  /// A stored or computed property, or a `static` one.
  case property(PropertyDecl)
  /// A function or an initializer: its signature and its body.
  case function(FunctionDecl)
  /// A `typealias`.
  case typeAlias(TypeAliasDecl)
  /// One `case` line of an enum, already spelled (`case euro = "EUR"`).
  case enumCase(doc: [String], text: Code)
  /// Plain comment lines (`// …`), for the file header and explanations.
  case comment([String])
  /// A line of code that needs no structure.
  case line(Code)
  /// `#if condition`, the declarations, `#endif`.
  case conditional(String, [Declaration])
}

/// A declaration modifier, or an attribute written before the declaration's keyword.
enum Modifier: Equatable {
  /// `public`, `package`, or nothing for `internal` (Swift's default).
  case access(AccessLevel)
  case nonisolated
  case `static`
  /// `indirect`: an enum that holds its cases' values out of line.
  case indirect
  /// `@_spi(Generated)`: the declaration is part of the runtime's generated-code interface.
  case spiGenerated

  /// The modifier as written, with its trailing space; empty for `internal`.
  var spelling: String {
    switch self {
    case .access(.internal): ""
    case .access(let level): "\(level.rawValue) "
    case .nonisolated: "nonisolated "
    case .static: "static "
    case .indirect: "indirect "
    case .spiGenerated: "@_spi(Generated) "
    }
  }
}

extension [Modifier] {
  /// The modifiers as written, each followed by a space.
  var spelling: String { map(\.spelling).joined() }
}

/// A `struct` or an `enum`.
struct NominalDecl: Equatable {
  enum Kind: String { case `struct`, `enum` }
  var doc: [String] = []
  var attributes: [String] = []
  var modifiers: [Modifier]
  var kind: Kind
  var name: String
  var conformances: [TypeReference] = []
  var members: [Declaration] = []
}

/// An `extension`.
struct ExtensionDecl: Equatable {
  var doc: [String] = []
  /// Attributes on lines of their own, such as `@available(…)`.
  var attributes: [String] = []
  var modifiers: [Modifier] = [.nonisolated]
  var type: TypeReference
  var conformances: [TypeReference] = []
  /// `where Value == Listing`: the requirement's generic parameter and type.
  var sameType: (parameter: String, type: TypeReference)?
  var members: [Declaration] = []

  static func == (lhs: ExtensionDecl, rhs: ExtensionDecl) -> Bool {
    lhs.doc == rhs.doc && lhs.attributes == rhs.attributes && lhs.modifiers == rhs.modifiers && lhs.type == rhs.type
      && lhs.conformances == rhs.conformances && lhs.sameType?.parameter == rhs.sameType?.parameter
      && lhs.sameType?.type == rhs.sameType?.type && lhs.members == rhs.members
  }
}

/// A property.
struct PropertyDecl: Equatable {
  enum Keyword: String { case `let`, `var` }
  var doc: [String] = []
  var attributes: [String] = []
  var modifiers: [Modifier]
  var keyword: Keyword = .var
  var name: String
  var type: TypeReference
  /// `= value` for stored properties.
  var initializer: Code?
  /// The getter's body for computed properties.
  var getter: [Statement]?
}

/// A function or initializer.
struct FunctionDecl: Equatable {
  var doc: [String] = []
  var attributes: [String] = []
  var modifiers: [Modifier]
  /// The rest of the declaration before the body: `init(rawValue: Swift.String)`.
  var signature: Code
  var body: [Statement]
}

/// `typealias Name = Type`.
struct TypeAliasDecl: Equatable {
  var doc: [String] = []
  var modifiers: [Modifier]
  var name: String
  var type: TypeReference
}

/// A statement inside a body.
indirect enum Statement: Equatable {
  /// One line.
  case line(Code)
  /// An opening line as written (`if ready {`, `try self.init(`), the nested statements one
  /// level deeper, and the closing line.
  case block(Code, [Statement], close: String = "}")
  /// `switch subject {` with its cases, each label aligned with the `switch` as Swift style has it.
  case `switch`(Code, [(label: Code, body: [Statement])])

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
