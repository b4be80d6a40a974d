/// Chooses the import lines of a generated file.
///
/// A module whose names appear in the file's public (or package) declarations is imported with
/// that access level, so that the file compiles in a target with `InternalImportsByDefault`;
/// one used only inside bodies is imported plainly, because an explicit `public import` that no
/// public declaration needs is a warning, and an explicit `internal import` beside another
/// file's plain `import` of the same module is an error in Swift 6 without that feature. A
/// module the file does not use is not imported.
struct Imports {
  /// A module generated code may import, and the spelling that marks a use of it.
  struct Module {
    var name: String
    /// Attributes before the import, such as `@_spi(Generated)`.
    var attributes: String = ""

    var qualifier: String { "\(name)." }
  }

  /// The modules generated code may use, in the order they are imported.
  static let modules = [Module(name: "Foundation"), Module(name: "TypedEvents", attributes: "@_spi(Generated) ")]

  /// The access keyword of the generated declarations (`public`, `package`), or nil for internal.
  let access: String?

  init(accessModifier: String) {
    access = accessModifier.split(separator: " ").first.map(String.init)
  }

  /// The import lines for `declarations`.
  func lines(for declarations: [Declaration]) -> [String] {
    var exposed = ""
    var all = ""
    for declaration in declarations { collect(declaration, exposed: &exposed, all: &all, inExposedType: false) }
    return Self.modules.compactMap { module in
      guard all.contains(module.qualifier) else { return nil }
      if let access, exposed.contains(module.qualifier) { return "\(module.attributes)\(access) import \(module.name)" }
      return "\(module.attributes)import \(module.name)"
    }
  }

  /// Whether a conformance uses its protocol's module in the sense of the import check: for a
  /// public type it does; for a package type Swift 6.3 neither requires a `package import` for
  /// the protocol nor counts the conformance as a use of one (checked with swiftc 6.3.1).
  private var conformancesCount: Bool { access == "public" }

  private func isExposed(_ modifiers: String) -> Bool {
    guard let access else { return false }
    return modifiers.split(separator: " ").contains(Substring(access))
  }

  /// Appends to `exposed` the text that is part of the module's interface (signatures,
  /// conformances, property types, enum cases), and to `all` every line of code.
  private func collect(_ declaration: Declaration, exposed: inout String, all: inout String, inExposedType: Bool) {
    switch declaration {
    case .type(let type):
      let typeExposed = isExposed(type.modifiers)
      let header = type.conformances.joined(separator: ",")
      all += header
      if typeExposed && conformancesCount { exposed += header }
      for member in type.members { collect(member, exposed: &exposed, all: &all, inExposedType: typeExposed) }
    case .extension(let decl):
      // Generated extensions extend the file's own types, which have the generated access level.
      let header = decl.type + decl.conformances.joined(separator: ",") + (decl.whereClause ?? "")
      all += header
      if conformancesCount { exposed += header }
      for member in decl.members { collect(member, exposed: &exposed, all: &all, inExposedType: access != nil) }
    case .property(let property):
      all += property.type + (property.initializer ?? "") + (property.getter.map(Self.text) ?? "")
      if isExposed(property.modifiers) { exposed += property.type }
    case .function(let function):
      all += function.signature + Self.text(function.body)
      // The signature holds the default arguments, which are inlined into callers.
      if isExposed(String(function.signature.prefix { $0 != "(" && $0 != "<" })) { exposed += function.signature }
    case .enumCase(_, let text):
      all += text
      if inExposedType { exposed += text }
    case .comment:
      break
    case .line(let text):
      all += text
    case .conditional(_, let declarations):
      for declaration in declarations {
        collect(declaration, exposed: &exposed, all: &all, inExposedType: inExposedType)
      }
    }
  }

  private static func text(_ statements: [Statement]) -> String {
    statements.map { statement in
      switch statement {
      case .line(let text): return text
      case .block(let header, let body, let close): return header + text(body) + close
      case .switch(let subject, let cases): return subject + cases.map { $0.label + text($0.body) }.joined()
      }
    }.joined(separator: "\n")
  }
}
