import EventCodegen
import EventGenDriver
import Foundation
import Testing

@testable import EventSchema

/// The generated code itself, read as code: comments and string literals taken out.
private func code(of source: String) -> String {
  source.split(separator: "\n", omittingEmptySubsequences: false)
    .map { line in
      let withoutStrings = String(line).replacing(/"(\\.|[^"\\])*"/, with: "\"\"")
      return withoutStrings.firstRange(of: "//").map { String(withoutStrings[..<$0.lowerBound]) } ?? withoutStrings
    }
    .joined(separator: "\n")
}

@Suite("Names in generated code")
struct GeneratedNamesTests {
  static let runs = [["Schemas"], ["Tests/EdgeCaseEvents/Schemas"]]

  /// Every type name that generated code uses without qualification, and that the schemas do
  /// not declare themselves, must be one the front end refuses as a schema name: otherwise a
  /// schema could declare it and the generated code would compile against the wrong type.
  @Test("names the generated code uses unqualified are reserved", arguments: runs)
  func unqualifiedNamesAreReserved(inputs: [String]) throws {
    let plan = try Generator.plan(inputs.map(path), options: GeneratorOptions())
    let files = try #require(plan.files)
    let sources = try InputFiles.read(try InputFiles.discover(inputs.map(path)))
    let schema = try #require(SchemaLoader.load(sources).schema)
    let declared = Set(
      schema.files.flatMap { file in
        file.types.map(\.name) + file.events.map(\.name) + file.groups.map(\.name) + file.externals
      })
    var used: Set<String> = []
    for file in files {
      // Capitalised words not after a `.` (a qualified name such as `TypedEvents.X` is safe).
      for match in code(of: file.contents).matches(of: /(?:^|[^.\w])([A-Z]\w*)/.anchorsMatchLineEndings()) {
        used.insert(String(match.output.1))
      }
    }
    let unreserved = used.subtracting(declared).subtracting(SwiftNames.reservedTypeNames)
    #expect(unreserved.isEmpty, "used unqualified but a schema may declare them: \(unreserved.sorted())")
  }

  @Test("generated code has no traps", arguments: runs)
  func generatedCodeHasNoTraps(inputs: [String]) throws {
    for file in try #require(try Generator.plan(inputs.map(path), options: GeneratorOptions()).files) {
      let text = code(of: file.contents)
      for trap in ["try!", "as!", "fatalError", "precondition", "unsafe"] {
        #expect(!text.contains(trap), "\(file.name) contains \(trap)")
      }
      // A force unwrap: `!` right after a name, `)` or `]`, and not the start of `!=`.
      let unwraps = text.matches(of: /[\w\)\]]![^=]/).map { String(text[$0.range]) }
      #expect(unwraps.isEmpty, "\(file.name) force-unwraps: \(unwraps)")
    }
  }

  @Test func outputDoesNotDependOnTheOrderOfTheArguments() throws {
    let schemas = ["Schemas/Listings.events.yaml", "Schemas/Analytics.events.yaml", "Schemas/Chat.events.yaml", "Schemas/Inventory.events.yaml"]
    let forward = try Generator.plan(schemas.map(path), options: GeneratorOptions()).files
    let backward = try Generator.plan(schemas.reversed().map(path), options: GeneratorOptions()).files
    #expect(forward != nil)
    #expect(forward == backward)
  }
}
