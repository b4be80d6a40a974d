/// Chooses the import lines of a generated file by walking its declarations: the modules that
/// their ``TypeReference``s and ``Code`` name.
///
/// A module whose names appear in the file's public (or package) declarations is imported with
/// that access level, so that the file compiles in a target with `InternalImportsByDefault`;
/// one used only inside bodies is imported plainly, because an explicit `public import` that no
/// public declaration needs is a warning, and an explicit `internal import` beside another
/// file's plain `import` of the same module is an error in Swift 6 without that feature. A
/// module the file does not use is not imported.
struct Imports {
  /// The access level of the generated declarations.
  let access: AccessLevel

  /// The modules a file uses, and those its interface (signatures, conformances, property
  /// types, enum cases) exposes.
  private struct Uses {
    var anywhere: Modules = []
    var exposed: Modules = []

    mutating func note(_ modules: Modules, exposed isExposed: Bool = false) {
      anywhere.formUnion(modules)
      if isExposed { exposed.formUnion(modules) }
    }

    mutating func note(_ statements: [Statement]) {
      for statement in statements {
        switch statement {
        case .line(let code): note(code.modules)
        case .block(let header, let body, _):
          note(header.modules)
          note(body)
        case .switch(let subject, let cases):
          note(subject.modules)
          for item in cases {
            note(item.label.modules)
            note(item.body)
          }
        }
      }
    }
  }

  /// The import lines for `declarations`.
  func lines(for declarations: [Declaration]) -> [String] {
    var uses = Uses()
    for declaration in declarations { collect(declaration, into: &uses, inExposedType: false) }
    // Internal declarations expose nothing: only uses matter, and every import is plain.
    return Module.allCases.compactMap { module in
      guard uses.anywhere.contains(module) else { return nil }
      let attributes = module == .typedEvents ? "@_spi(Generated) " : ""
      if access != .internal, uses.exposed.contains(module) {
        return "\(attributes)\(access.rawValue) import \(module.name)"
      }
      return "\(attributes)import \(module.name)"
    }
  }

  /// Whether a conformance uses its protocol's module in the sense of the import check: for a
  /// public type it does; for a package type Swift 6.3 neither requires a `package import` for
  /// the protocol nor counts the conformance as a use of one (checked with swiftc 6.3.1).
  private var conformancesCount: Bool { access == .public }

  /// Whether a declaration with `modifiers` is part of the module's interface.
  private func isExposed(_ modifiers: [Modifier]) -> Bool {
    access != .internal && modifiers.contains(.access(access))
  }

  private func collect(_ declaration: Declaration, into uses: inout Uses, inExposedType: Bool) {
    switch declaration {
    case .type(let type):
      let typeExposed = isExposed(type.modifiers)
      for conformance in type.conformances {
        uses.note(conformance.modules, exposed: typeExposed && conformancesCount)
      }
      for member in type.members { collect(member, into: &uses, inExposedType: typeExposed) }
    case .extension(let decl):
      // Generated extensions extend the file's own types, which have the generated access level.
      for header in [decl.type] + (decl.sameType.map { [$0.type] } ?? []) + decl.conformances {
        uses.note(header.modules, exposed: conformancesCount)
      }
      for member in decl.members { collect(member, into: &uses, inExposedType: access != .internal) }
    case .property(let property):
      uses.note(property.type.modules, exposed: isExposed(property.modifiers))
      uses.note(property.initializer?.modules ?? [])
      uses.note(property.getter ?? [])
    case .function(let function):
      // The signature holds the default arguments, which are inlined into callers.
      uses.note(function.signature.modules, exposed: isExposed(function.modifiers))
      uses.note(function.body)
    case .typeAlias(let alias):
      uses.note(alias.type.modules, exposed: isExposed(alias.modifiers))
    case .enumCase(_, let text):
      uses.note(text.modules, exposed: inExposedType)
    case .comment:
      break
    case .line(let code):
      uses.note(code.modules)
    case .conditional(_, let declarations):
      for declaration in declarations { collect(declaration, into: &uses, inExposedType: inExposedType) }
    }
  }
}
