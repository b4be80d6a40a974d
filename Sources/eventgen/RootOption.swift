import ArgumentParser
import EventSchema

/// `--root`, which every command that reads inputs takes.
struct RootOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The folder that every file an AsyncAPI document names with `$ref` must be inside (default: the current directory).",
      valueName: "folder"))
  var root: String?

  /// The folder, for the front end.
  var referenceRoot: ReferenceRoot { ReferenceRoot(root ?? ".") }
}
