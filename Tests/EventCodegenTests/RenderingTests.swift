import EventSchema
import Testing

@testable import EventCodegen

@Suite("Rendering")
struct RenderingTests {
  @Test(arguments: [
    ("plain", "\"plain\""),
    ("say \"hi\"", "\"say \\\"hi\\\"\""),
    ("back\\slash", "\"back\\\\slash\""),
    ("\\(interpolation)", "\"\\\\(interpolation)\""),
    ("two\nlines", "\"two\\nlines\""),
    ("tab\there", "\"tab\\there\""),
    ("bell\u{7}", "\"bell\\u{7}\""),
    ("line\u{2028}separator", "\"line\\u{2028}separator\""),
    ("café 🎉", "\"café 🎉\""),
  ])
  func stringLiteralsAreExact(text: String, literal: String) {
    #expect(SwiftSpelling.stringLiteral(text) == literal)
  }

  @Test func keywordsAreEscaped() {
    #expect(SwiftSpelling.identifier("default") == "`default`")
    #expect(SwiftSpelling.identifier("listing") == "listing")
  }

  @Test func defaultValuesAreSpelledAsSwift() {
    #expect(
      ValueSpelling.expression(.decimal(significand: -1250, exponent: -2), of: .builtin(.decimal))
        == Code("Foundation.Decimal(sign: .minus, exponent: -2, significand: 1250)", modules: Modules(.foundation)))
    #expect(ValueSpelling.expression(.floatingPoint("80"), of: .builtin(.double)) == "80.0")
    #expect(ValueSpelling.expression(.none, of: .optional(.builtin(.int))) == "nil")
    #expect(ValueSpelling.expression(.dictionary([]), of: .dictionary(.builtin(.int))) == "[:]")
    #expect(
      ValueSpelling.expression(.wrapped(.string("x")), of: .named("ID", .wrapper(.string))) == "ID(rawValue: \"x\")")
    #expect(
      ValueSpelling.expression(.array([.uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")]), of: .array(.builtin(.uuid)))
        .modules == Modules(.foundation))
  }

  @Test func filterHelperLabelsComeFromTheSubjectType() {
    func label(_ type: FieldType, _ fallback: String = "subject") -> String {
      FilterHelperRenderer.label(for: .init(typeName: "E", subjectType: type, fallbackLabel: fallback, isGroup: false))
    }
    #expect(label(.named("ListingID", .wrapper(.string))) == "listing")
    #expect(label(.named("BoxId", .wrapper(.uuid))) == "box")
    #expect(label(.named("Token", .wrapper(.uuid))) == "token")
    #expect(label(.named("ListingRef", .wrapper(.string))) == "listing")
    #expect(label(.named("ListingKey", .wrapper(.string))) == "listing")
    #expect(label(.named("ListingIdentifier", .wrapper(.string))) == "listing")
    // A suffix counts only as a word of its own.
    #expect(label(.named("OrderUUID", .wrapper(.uuid))) == "orderUUID")
    #expect(label(.named("Monkey", .wrapper(.string))) == "monkey")
    #expect(label(.builtin(.string), "name") == "name")
  }

  @Test func eachSchemasListOfEventTypesHasAnIdentifierOfItsOwn() {
    let names = CatalogRenderer.tableNames(forSchemasAt: [
      "Schemas/Listings.events.yaml", "Orders.yml", "more/order-events.yaml", "2024.events.yaml",
      "Other/Listings.events.yaml", "Ünïcode.events.yaml",
    ])
    #expect(names["Schemas/Listings.events.yaml"] == "listingsEvents")
    #expect(names["Orders.yml"] == "ordersEvents")
    #expect(names["more/order-events.yaml"] == "orderEvents")
    #expect(names["2024.events.yaml"] == "schema2024Events")
    #expect(names["Other/Listings.events.yaml"] == "listingsEvents2")
    #expect(names["Ünïcode.events.yaml"] == "nCodeEvents")
    #expect(CatalogRenderer.tableNames(forSchemasAt: ["事件.yaml"]) == ["事件.yaml": "schemaEvents"])
    // A name the schemas declare would capture `Name.self` inside `GeneratedEvents`.
    #expect(
      CatalogRenderer.tableNames(forSchemasAt: ["Chat.events.yaml"], avoiding: ["chatEvents"])
        == ["Chat.events.yaml": "chatEvents2"])
  }

  @Test func typesAreSpelledModuleQualified() {
    #expect(SwiftSpelling.type(.builtin(.string)).spelling == "Swift.String")
    #expect(SwiftSpelling.type(.builtin(.string)).modules == [])
    #expect(SwiftSpelling.type(.optional(.array(.builtin(.date)))).spelling == "[Foundation.Date]?")
    #expect(SwiftSpelling.type(.optional(.array(.builtin(.date)))).modules == Modules(.foundation))
    #expect(SwiftSpelling.type(.dictionary(.named("Money", .record))).spelling == "[Swift.String: Money]")
    #expect(
      TypeReference.array(.generic(.runtime("EventGroupMember"), .local("G"))).spelling
        == "[TypedEvents.EventGroupMember<G>]")
    #expect(TypeReference.array(.metatype(.existential(.runtime("Event")))).spelling == "[any TypedEvents.Event.Type]")
  }

  /// A module is imported with the generated access level only where a declaration of that
  /// level names it: an unused `public import` is a warning, a plain one is fine in every mode.
  @Test func importsFollowWhereAModuleIsUsed() {
    let imports = Imports(access: .public)
    let publicDate = Declaration.type(
      NominalDecl(
        modifiers: [.access(.public)], kind: .struct, name: "A", conformances: [.runtime("Event")],
        members: [.property(PropertyDecl(modifiers: [.access(.public)], name: "at", type: .foundation("Date")))]))
    #expect(
      imports.lines(for: [publicDate]) == ["public import Foundation", "@_spi(Generated) public import TypedEvents"])
    let bodyOnly = Declaration.extension(
      ExtensionDecl(
        type: .local("A"), conformances: [.runtime("FieldCodable")],
        members: [
          .function(
            FunctionDecl(
              modifiers: [.access(.public)], signature: "func f()",
              body: [.line("_ = \(TypeReference.foundation("Date")).self")]))
        ]))
    #expect(imports.lines(for: [bodyOnly]) == ["import Foundation", "@_spi(Generated) public import TypedEvents"])
    let internalDate = Declaration.type(
      NominalDecl(
        modifiers: [.access(.public)], kind: .struct, name: "B",
        members: [.property(PropertyDecl(modifiers: [], name: "at", type: .foundation("Date")))]))
    #expect(imports.lines(for: [internalDate]) == ["import Foundation"])
    #expect(
      Imports(access: .internal).lines(for: [publicDate]) == [
        "import Foundation", "@_spi(Generated) import TypedEvents",
      ])
    #expect(imports.lines(for: [.line("// nothing")]).isEmpty)
    // Text names no module, even where it spells a module's name: only references do.
    #expect(imports.lines(for: [.line("let name = \"Foundation.Updated\"")]).isEmpty)
    // A package type's conformance neither needs nor counts as a use of a `package import`.
    let packageEvent = Declaration.type(
      NominalDecl(modifiers: [.access(.package)], kind: .struct, name: "C", conformances: [.runtime("Event")]))
    #expect(Imports(access: .package).lines(for: [packageEvent]) == ["@_spi(Generated) import TypedEvents"])
  }

  @Test func thePrinterFormatsAsAPersonWould() {
    let file = SwiftFile(
      header: ["Header."], imports: ["import Foundation"],
      declarations: [
        .type(
          NominalDecl(
            doc: ["A thing."], modifiers: [.access(.public)], kind: .struct, name: "Thing",
            conformances: [.local("Hashable")],
            members: [
              .property(PropertyDecl(modifiers: [.access(.public)], name: "a", type: .local("Int"))),
              .property(PropertyDecl(modifiers: [.access(.public)], name: "b", type: .local("Int"))),
              .property(
                PropertyDecl(
                  doc: ["Computed."], modifiers: [.access(.public)], name: "c", type: .local("Int"),
                  getter: [.line("a + b")])
              ),
              .function(
                FunctionDecl(
                  modifiers: [], signature: "func f()",
                  body: [.switch("a", [("case 1:", [.line("break")]), ("default:", [.line("break")])])])),
            ]))
      ])
    #expect(
      SwiftPrinter.print(file) == """
        // Header.

        import Foundation

        /// A thing.
        public struct Thing: Hashable {
          public var a: Int
          public var b: Int

          /// Computed.
          public var c: Int { a + b }

          func f() {
            switch a {
            case 1:
              break
            default:
              break
            }
          }
        }

        """)
  }
}
