import ArgumentParser
import EventSchema

/// How the inputs are read: the options every command that reads inputs takes.
struct ReadingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The folder that every file an AsyncAPI document names with `$ref` must be inside (default: the current directory).",
      valueName: "folder"))
  var root: String?

  @Flag(
    help:
      "Make the inputs' warnings errors: an AsyncAPI message that cannot be an event (Avro, text, a remote payload) stops the run instead of being skipped."
  )
  var strict = false

  /// The folder, for the front end.
  var referenceRoot: ReferenceRoot { ReferenceRoot(root ?? ".") }
}
