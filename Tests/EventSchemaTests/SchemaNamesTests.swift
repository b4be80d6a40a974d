import Testing

@testable import EventSchema

/// Type names from AsyncAPI keys: the identifier fast path agrees with the word splitting.
@Suite("AsyncAPI type names")
struct SchemaNamesTests {
  @Test(arguments: [
    ("userSignedUp", "UserSignedUp"), ("UserSignedUp", "UserSignedUp"), ("user/signed-up", "UserSignedUp"),
    ("user_signed_up", "UserSignedUp"), ("2fa", "_2fa"), ("a", "A"), ("é", "Unnamed"), ("x9", "X9"),
    ("AVRFusionHILGPSMessage", "AVRFusionHILGPSMessage"), ("message.sent", "MessageSent"),
  ])
  func typeNames(_ raw: String, _ expected: String) {
    #expect(SchemaNames.typeName(raw) == expected)
  }
}
