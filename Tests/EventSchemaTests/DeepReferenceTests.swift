import Testing

@testable import EventSchema

/// Schemas that refer to each other thousands deep: read on ``DeepStack``'s thread, or refused
/// with a located error past ``AsyncAPIDecoder/maximumNesting``; never a crash. (At 300 levels a
/// debug eventgen, the one the build-tool plugin runs, overflowed its stack before.)
@Suite("$ref chains thousands deep")
struct DeepReferenceTests {
  /// A message whose payload is S0; S(i) has a property (two, when `wide`) referring to S(i+1);
  /// the last has a string.
  static func chain(_ count: Int, wide: Bool = false) -> String {
    var lines = [
      "asyncapi: 3.0.0", "info: {title: T, version: 1.0.0}", "components:", "  messages:", "    E:",
      "      payload: {$ref: '#/components/schemas/S0'}", "  schemas:",
    ]
    for index in 0..<count {
      let next = "{$ref: '#/components/schemas/S\(index + 1)'}"
      let properties =
        index == count - 1 ? "value: {type: string}" : wide ? "a: \(next), b: \(next)" : "next: \(next)"
      lines.append("    S\(index): {type: object, properties: {\(properties)}}")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func aChainThreeThousandDeepIsRead() throws {
    let result = loadAsyncAPI(Self.chain(3_000))
    #expect(result.diagnostics.isEmpty)
    // S0 is the payload, read in place as the event's fields; the others are types.
    #expect(result.schema?.files.first?.types.count == 2_999)
  }

  @Test func aWideChainIsReadOnceAPiece() throws {
    // Two references to the next at every level: 2^2000 paths, 2,000 types.
    let result = loadAsyncAPI(Self.chain(2_000, wide: true))
    #expect(result.diagnostics.isEmpty)
    #expect(result.schema?.files.first?.types.count == 1_999)
  }

  @Test func aWideChainOfChoicesIsReadOnceAPiece() throws {
    // S(i) is S(i+1) or an array of S(i+1), 2,000 deep: 2^2000 paths, 2,000 choices.
    var lines = [
      "asyncapi: 3.0.0", "info: {title: T, version: 1.0.0}", "components:", "  messages:", "    E:",
      "      payload: {type: object, properties: {x: {$ref: '#/components/schemas/S1'}}}", "  schemas:",
    ]
    for index in 1...2_000 {
      let next = "{$ref: '#/components/schemas/S\(index + 1)'}"
      lines.append("    S\(index): {anyOf: [\(next), {type: array, items: \(next)}]}")
    }
    lines.append("    S2001: {type: string}")
    let clock = ContinuousClock()
    var result: SchemaLoadResult?
    let elapsed = clock.measure { result = loadAsyncAPI(lines.joined(separator: "\n") + "\n") }
    #expect(result?.diagnostics.isEmpty == true)
    #expect(result?.schema?.files.first?.types.count == 2_000)
    // 0.2 s alone in a debug build; read path by path, it would never end. A wide bound, since
    // the other tests share the cores.
    #expect(elapsed < .seconds(10))
  }

  @Test func aChainDeeperThanTheBoundIsRefusedWhereItGoesTooDeep() throws {
    let count = AsyncAPIDecoder.maximumNesting + 50
    let result = loadAsyncAPI(Self.chain(count))
    #expect(result.schema == nil)
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.count == 1)
    let error = try #require(errors.first)
    #expect(
      error.message.hasPrefix("schemas nest through `$ref` more than \(AsyncAPIDecoder.maximumNesting) deep here"))
    // At the reference one level too deep: S1 to S(maximumNesting) are read (S0 is the payload,
    // read in place), and the property of S(maximumNesting), on line 8 + maximumNesting,
    // refers to the next.
    #expect(error.location.line == 8 + AsyncAPIDecoder.maximumNesting)
  }
}
