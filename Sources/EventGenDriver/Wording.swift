/// The words the commands print, spelled once.
public enum Wording {
  /// `count` and a noun, singular for one: `1 event`, `3 events`, `1 change`, `2 changes`.
  public static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
  }

  /// The command that brings stale output up to date, as `check` and `--check` suggest it:
  /// `eventgen <verb> <inputs> [--config C] --output O [--name value …]`, with the options that
  /// were given (a nil value is left out).
  public static func rerun(
    _ verb: String, inputs: [String], config: String?, output: String?, options: [(name: String, value: String?)] = []
  ) -> String {
    var words = ["eventgen", verb] + inputs
    if let config { words += ["--config", config] }
    if let output { words += ["--output", output] }
    for option in options {
      if let value = option.value { words += ["--\(option.name)", value] }
    }
    return words.joined(separator: " ")
  }
}
