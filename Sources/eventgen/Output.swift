import EventSchema
import Foundation

/// Where the CLI writes: results to standard output, diagnostics and failures to standard error.
enum Output {
  static func print(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    FileHandle.standardError.write(Data(diagnostics.map { "\($0)\n" }.joined().utf8))
  }

  static func error(_ message: String) {
    FileHandle.standardError.write(Data("eventgen: \(message)\n".utf8))
  }
}
