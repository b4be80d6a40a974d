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
    // Internal declarations expose nothing: only uses matter.
    var uses = Uses(exposed: [Bool](repeating: access == nil, count: Self.modules.count))
    for declaration in declarations { collect(declaration, into: &uses, inExposedType: false) }
    return Self.modules.indices.compactMap { index in
      let module = Self.modules[index]
      guard uses.anywhere[index] else { return nil }
      if let access, uses.exposed[index] { return "\(module.attributes)\(access) import \(module.name)" }
      return "\(module.attributes)import \(module.name)"
    }
  }

  /// Which of ``modules`` the text seen so far mentions, anywhere and in the module's interface.
  ///
  /// Each fragment is searched as it is met, rather than joined into one string and searched
  /// once: the joined text of a thousand events ran to megabytes, and building and searching it
  /// was a third of a run (callgrind).
  private struct Uses {
    var anywhere = [Bool](repeating: false, count: Imports.modules.count)
    var exposed: [Bool]

    /// Every module is used, and exposed: nothing more to learn.
    var complete: Bool { !anywhere.contains(false) && !exposed.contains(false) }

    mutating func note(_ text: String, exposed isExposed: Bool = false) {
      for index in Imports.modules.indices where !anywhere[index] || (isExposed && !exposed[index]) {
        guard Self.contains(text, Imports.modules[index].qualifier) else { continue }
        anywhere[index] = true
        if isExposed { exposed[index] = true }
      }
    }

    mutating func note(_ statements: [Statement]) {
      for statement in statements {
        switch statement {
        case .line(let text): note(text)
        case .block(let header, let body, let close):
          note(header)
          note(body)
          note(close)
        case .switch(let subject, let cases):
          note(subject)
          for item in cases {
            note(item.label)
            note(item.body)
          }
        }
      }
    }

    /// Whether `text` contains `word`, by UTF-8 bytes: Foundation's `contains` goes through
    /// `NSString` and was most of the cost.
    static func contains(_ text: String, _ word: String) -> Bool {
      var text = text
      var word = word
      return text.withUTF8 { haystack in
        word.withUTF8 { needle in
          guard let first = needle.first else { return false }
          var start = 0
          while let found = haystack[start...].firstIndex(of: first), found + needle.count <= haystack.count {
            if haystack[found..<found + needle.count].elementsEqual(needle) { return true }
            start = found + 1
          }
          return false
        }
      }
    }
  }

  /// Whether a conformance uses its protocol's module in the sense of the import check: for a
  /// public type it does; for a package type Swift 6.3 neither requires a `package import` for
  /// the protocol nor counts the conformance as a use of one (checked with swiftc 6.3.1).
  private var conformancesCount: Bool { access == "public" }

  /// Whether `modifiers` (space-separated words) include the generated access keyword.
  private func isExposed(_ modifiers: some StringProtocol) -> Bool {
    guard let access else { return false }
    var words = modifiers.utf8[...]
    while !words.isEmpty {
      let end = words.firstIndex(of: UInt8(ascii: " ")) ?? words.endIndex
      if words[..<end].elementsEqual(access.utf8) { return true }
      words = end == words.endIndex ? words[end...] : words[words.index(after: end)...]
    }
    return false
  }

  /// Notes the text that is part of the module's interface (signatures, conformances, property
  /// types, enum cases) as exposed, and every line of code as a use.
  private func collect(_ declaration: Declaration, into uses: inout Uses, inExposedType: Bool) {
    // Most files use every module in their first declarations: the rest need no search.
    guard !uses.complete else { return }
    switch declaration {
    case .type(let type):
      let typeExposed = isExposed(type.modifiers)
      for conformance in type.conformances { uses.note(conformance, exposed: typeExposed && conformancesCount) }
      for member in type.members { collect(member, into: &uses, inExposedType: typeExposed) }
    case .extension(let decl):
      // Generated extensions extend the file's own types, which have the generated access level.
      for header in [decl.type, decl.whereClause ?? ""] + decl.conformances {
        uses.note(header, exposed: conformancesCount)
      }
      for member in decl.members { collect(member, into: &uses, inExposedType: access != nil) }
    case .property(let property):
      uses.note(property.type, exposed: isExposed(property.modifiers))
      uses.note(property.initializer ?? "")
      uses.note(property.getter ?? [])
    case .function(let function):
      // The signature holds the default arguments, which are inlined into callers.
      uses.note(function.signature, exposed: isExposed(function.signature.prefix { $0 != "(" && $0 != "<" }))
      uses.note(function.body)
    case .enumCase(_, let text):
      uses.note(text, exposed: inExposedType)
    case .comment:
      break
    case .line(let text):
      uses.note(text)
    case .conditional(_, let declarations):
      for declaration in declarations { collect(declaration, into: &uses, inExposedType: inExposedType) }
    }
  }
}
