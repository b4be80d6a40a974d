import ArgumentParser
import EventGenDriver
import EventSchema
import Foundation

/// Where the CLI writes: results to standard output, diagnostics and failures to standard error.
enum Output {
  /// The help of the arguments that name a run's inputs.
  static let inputsHelp = ArgumentHelp(
    "Schema files or AsyncAPI documents, or folders that contain them (searched for \(InputFiles.searchedFor))."
  )

  static func print(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    FileHandle.standardError.write(Data(diagnostics.map { "\($0)\n" }.joined().utf8))
  }

  static func error(_ message: String) {
    FileHandle.standardError.write(Data("eventgen: \(message)\n".utf8))
  }

  /// A plan's files after printing its diagnostics; with schema errors, says that nothing was
  /// written and exits 1.
  static func files(of plan: Pipeline.Plan) throws -> [GeneratedFile] {
    print(plan.diagnostics)
    guard let files = plan.files else {
      error("\(Wording.count(plan.inputs.errorCount, "error")); nothing was written")
      throw ExitCode(1)
    }
    return files
  }

  /// The config at `path`, or a config with nothing set when there is none; exits 1 after
  /// printing the diagnostics of a malformed one.
  static func config(_ path: String?) throws -> GeneratorConfig {
    guard let path else { return GeneratorConfig() }
    let (loaded, diagnostics) = try GeneratorConfig.load(path)
    print(diagnostics)
    guard let loaded else { throw ExitCode(1) }
    return loaded
  }
}
