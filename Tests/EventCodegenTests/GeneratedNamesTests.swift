import EventCodegen
import EventGenDriver
import Foundation
import Testing

@testable import EventSchema

/// The generated code itself, read as code: comments and string literals taken out. (Plain
/// scanning rather than Regex, which needs macOS 13 while the package supports macOS 12.)
private func code(of source: String) -> String {
  var result = ""
  for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
    var inString = false
    var escaped = false
    var previous: Character = " "
    for character in line {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
          result.append("\"")
        }
      } else if character == "\"" {
        inString = true
        result.append("\"")
      } else if character == "/" && previous == "/" {
        result.removeLast()  // the first slash of the comment
        break
      } else {
        result.append(character)
      }
      previous = character
    }
    result.append("\n")
  }
  return result
}

/// Words that start with a capital letter and do not follow a `.` (a qualified name such as
/// `TypedEvents.X` is safe).
private func unqualifiedTypeNames(in code: String) -> Set<String> {
  var names: Set<String> = []
  var word = ""
  var afterDot = false
  var wordAfterDot = false
  for character in code + " " {
    if character.isLetter || character.isNumber || character == "_" {
      if word.isEmpty { wordAfterDot = afterDot }
      word.append(character)
    } else {
      if let first = word.first, first.isUppercase, !wordAfterDot { names.insert(word) }
      word = ""
      afterDot = character == "."
    }
  }
  return names
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
    let used = files.reduce(into: Set<String>()) { $0.formUnion(unqualifiedTypeNames(in: code(of: $1.contents))) }
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
      let characters = Array(text)
      let unwraps = characters.indices.dropFirst().dropLast().filter { index in
        let before = characters[index - 1]
        return characters[index] == "!" && characters[index + 1] != "="
          && (before.isLetter || before.isNumber || before == "_" || before == ")" || before == "]")
      }
      #expect(unwraps.isEmpty, "\(file.name) force-unwraps at \(unwraps.count) places")
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
