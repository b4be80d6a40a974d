import EventCodegen
import EventGenDriver
import Foundation
import TestSupport
import Testing

@testable import EventSchema

/// The generated code itself, read as code: comments and string literals taken out. (Plain
/// scanning rather than Regex, which needs macOS 13 while the package supports macOS 12.)
func code(of source: String) -> String {
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
/// `TypedEvents.X` is safe) or an `@` (an attribute such as `@Sendable` is not looked up among
/// types). The argument of `@_spi(…)` is an SPI group, not a type; `Self` is a keyword, which no
/// module can declare.
private func unqualifiedTypeNames(in code: String) -> Set<String> {
  var names: Set<String> = []
  var word = ""
  var previous: Character = " "
  var wordStart: Character = " "
  for character in code.replacingOccurrences(of: "@_spi(Generated)", with: "") + " " {
    if character.isLetter || character.isNumber || character == "_" {
      if word.isEmpty { wordStart = previous }
      word.append(character)
    } else {
      if let first = word.first, first.isUppercase, wordStart != ".", wordStart != "@", word != "Self" {
        names.insert(word)
      }
      word = ""
    }
    previous = character
  }
  return names
}

@Suite("Names in generated code")
struct GeneratedNamesTests {
  static let runs = [["Schemas"], ["Tests/EdgeCaseEvents/Schemas"]]

  /// Generated code names what it takes from Swift, Foundation and TypedEvents module-qualified.
  /// Every type name it uses without qualification is one the schemas declare, or one it declares
  /// itself that the front end refuses as a schema name; nothing else, so that a module's own
  /// declarations cannot capture a name the generated code means.
  @Test("generated code uses no name unqualified but the schemas' own and reserved ones", arguments: runs)
  func unqualifiedNamesAreTheSchemasOwn(inputs: [String]) throws {
    let plan = try Pipeline.plan(inputs.map(path), renderer: SwiftSources())
    let files = try #require(plan.files)
    let sources = try InputFiles.read(try InputFiles.discover(inputs.map(path)))
    let schema = try #require(SchemaLoader.load(sources).schema)
    let declared = Set(
      schema.files.flatMap { file in
        file.types.map(\.name) + file.events.map(\.name) + file.groups.map(\.name) + file.externals
      })
    // Less the open enums' catch-all case: upper case, so this scan takes it for a type name.
    let used = files.reduce(into: Set<String>()) { $0.formUnion(unqualifiedTypeNames(in: code(of: $1.contents))) }
      .subtracting([SwiftNames.unrecognizedCase])
    let unreserved = used.subtracting(declared).subtracting(SwiftNames.reservedTypeNames.keys)
    #expect(unreserved.isEmpty, "used unqualified but a module may declare them: \(unreserved.sorted())")
    // What remains reserved is what generated code declares or qualifies with; a built-in name
    // is reserved for the schema language's sake.
    let qualifiers: Set<String> = ["Swift", "Foundation", "TypedEvents"]
    let members: Set<String> = ["catalog"]  // `GeneratedEvents.catalog`, beside the lists that name events
    let needed = used.union(qualifiers).union(members).union(BuiltinType.allCases.map(\.swiftName))
    #expect(Set(SwiftNames.reservedTypeNames.keys).subtracting(needed).isEmpty, "reserved without need")
  }

  @Test("generated code has no traps", arguments: runs)
  func generatedCodeHasNoTraps(inputs: [String]) throws {
    for file in try #require(try Pipeline.plan(inputs.map(path), renderer: SwiftSources()).files) {
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
    let schemas = [
      "Schemas/Listings.events.yaml", "Schemas/Analytics.events.yaml", "Schemas/Chat.events.yaml",
      "Schemas/Inventory.events.yaml",
    ]
    let forward = try Pipeline.plan(schemas.map(path), renderer: SwiftSources()).files
    let backward = try Pipeline.plan(schemas.reversed().map(path), renderer: SwiftSources()).files
    #expect(forward != nil)
    #expect(forward == backward)
  }
}
