import ContractExport
import EventSchema
import Foundation
import TestSupport
import Testing

/// Validates schema files given as (path, text) and fails the test on any error.
func load(_ files: [(path: String, text: String)]) throws -> SchemaSet {
  let result = SchemaLoader.load(files.map { SchemaSource(path: $0.path, text: $0.text) })
  return try #require(result.schema, "schema errors: \(result.diagnostics.map(\.description))")
}

/// One schema file's JSON Schema document.
func jsonSchema(_ text: String, path: String = "T.events.yaml") throws -> JSONValue {
  ContractExporter(try load([(path, text)])).jsonSchemaDocument()
}

/// One schema file's AsyncAPI document.
func asyncAPI(_ text: String, path: String = "T.events.yaml") throws -> JSONValue {
  ContractExporter(try load([(path, text)])).asyncAPIDocument()
}

/// The value as compact JSON text, for comparisons that read as the JSON they mean.
func compact(_ value: JSONValue?) -> String {
  guard let value else { return "<missing>" }
  return value.prettyPrinted.split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
    .replacingOccurrences(of: "\": ", with: "\":")
}
