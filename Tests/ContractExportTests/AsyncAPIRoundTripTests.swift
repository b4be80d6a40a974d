import ContractExport
import EventCodegen
import EventSchema
import Foundation
import TestSupport
import Testing

/// `.events.yaml` → `eventgen asyncapi` → AsyncAPI input gives the Swift that the `.events.yaml`
/// gives directly: the same declarations, compared one by one.
///
/// What may differ is the files' layout, not a declaration: a run of several schema files writes
/// a file each (with its own version check and list of event types for the catalog), while the
/// AsyncAPI document is one input and so one file. Comments are left out of the comparison; the
/// wire names and versions they repeat are compared in the code itself.
@Suite("Contract export: AsyncAPI back to Swift")
struct AsyncAPIRoundTripTests {
  struct SchemaSetCase: CustomTestStringConvertible, Sendable {
    var name: String
    var folder: String
    var options: GeneratorOptions
    var testDescription: String { name }
  }

  static let cases = [
    SchemaSetCase(
      name: "samples", folder: "Schemas", options: GeneratorOptions(notificationMessage: .mainActor)),
    SchemaSetCase(
      name: "edge cases", folder: "Tests/EdgeCaseEvents/Schemas", options: GeneratorOptions(notificationMessage: .async)
    ),
  ]

  /// The top-level declarations of generated files, without comments, `#if` lines, imports,
  /// version checks and catalog parts, sorted.
  static func declarations(_ files: [String]) -> [String] {
    files.flatMap { text in
      text.split(separator: "\n\n").reduce(into: [String]()) { blocks, chunk in
        // A chunk that starts indented continues the declaration before it.
        if chunk.first == " " || chunk.first == "}", !blocks.isEmpty {
          blocks[blocks.count - 1] += "\n\n" + chunk
        } else {
          blocks.append(String(chunk))
        }
      }
    }
    .map { block in
      block.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { line in
          !line.drop { $0 == " " }.hasPrefix("//") && !line.hasPrefix("#if") && !line.hasPrefix("#endif")
        }
        .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
    .filter { block in
      !block.isEmpty
        && !["import ", "public import ", "@_spi", "fileprivate struct _TypedEventsRuntimeVersionCheck"].contains {
          block.hasPrefix($0)
        }
        && !block.contains("enum GeneratedEvents") && !block.hasPrefix("nonisolated extension GeneratedEvents")
    }
    .sorted()
  }

  @Test(
    "the exported AsyncAPI document, JSON or YAML, generates the same declarations",
    arguments: cases, ContractSyntax.allCases)
  func theExportGeneratesTheSameSwift(_ set: SchemaSetCase, syntax: ContractSyntax) throws {
    let folder = path(set.folder)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".events.yaml") }
      .sorted()
    let sources = try files.map {
      SchemaSource(path: $0, text: try String(contentsOfFile: folder + "/" + $0, encoding: .utf8))
    }
    let direct = try #require(SchemaLoader.load(sources).schema)
    let document = ContractExporter(direct).document(.asyncAPI, syntax: syntax)
    let read = SchemaLoader.load([SchemaSource(path: "contract.asyncapi.\(syntax.rawValue)", text: document)])
    #expect(read.diagnostics.isEmpty, "\(read.diagnostics.map(\.description))")
    let viaAsyncAPI = try #require(read.schema)
    #expect(viaAsyncAPI.files.count == 1)
    #expect(viaAsyncAPI.allEvents.count == direct.allEvents.count)

    let generator = SwiftSourceRenderer(options: set.options)
    let expected = Self.declarations(generator.render(direct))
    let actual = Self.declarations(generator.render(viaAsyncAPI))
    #expect(expected.count > 3 * direct.allEvents.count)
    let missing = expected.filter { !actual.contains($0) }
    let extra = actual.filter { !expected.contains($0) }
    #expect(
      missing.isEmpty && extra.isEmpty,
      "missing:\n\(missing.prefix(3).joined(separator: "\n---\n"))\nextra:\n\(extra.prefix(3).joined(separator: "\n---\n"))"
    )
    #expect(expected == actual)
  }
}
