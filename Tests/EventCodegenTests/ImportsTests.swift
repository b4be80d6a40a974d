import EventCodegen
import EventGenDriver
import EventSchema
import Foundation
import TestSupport
import Testing

/// The imports come from the syntax tree, not from the printed text. Read back from the text, they
/// must agree: a file imports a module exactly when its code (outside comments and string
/// literals) names it, whatever the access level and notification mode.
@Suite("Imports from the tree agree with the code")
struct ImportsTests {
  static let inputs = [
    "Schemas", "Tests/EdgeCaseEvents/Schemas", "Tests/BackendEvents/Contract",
    "Fuzz/Seeds/asyncapi-2-6.yaml", "Fuzz/Seeds/asyncapi-simple.yaml",
  ]

  static let options = AccessLevel.allCases.flatMap { access in
    ([nil] + NotificationMessage.allCases).map { GeneratorOptions(accessLevel: access, notificationMessage: $0) }
  }

  @Test(arguments: inputs, options)
  func importedModulesAreThoseTheCodeNames(input: String, options: GeneratorOptions) throws {
    let files = try #require(try Pipeline.plan([path(input)], renderer: SwiftSources(options: options)).files)
    for file in files {
      let lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
      let imports = lines.filter {
        $0.hasSuffix(" import Foundation") || $0.hasSuffix(" import TypedEvents") || $0.hasPrefix("import ")
      }
      let source = code(of: lines.filter { !$0.contains("import ") }.joined(separator: "\n"))
      for module in ["Foundation", "TypedEvents"] {
        let imported = imports.contains { $0.hasSuffix("import \(module)") }
        #expect(imported == source.contains("\(module)."), "\(file.name), \(options): \(module)")
      }
      // Internal declarations expose nothing, so every import is plain.
      if options.accessLevel == .internal {
        #expect(imports.allSatisfy { !$0.contains("public import") && !$0.contains("package import") })
      }
    }
  }
}

extension GeneratorOptions: CustomTestStringConvertible {
  public var testDescription: String {
    "\(accessLevel.rawValue), \(notificationMessage?.rawValue ?? "no notifications")"
  }
}
