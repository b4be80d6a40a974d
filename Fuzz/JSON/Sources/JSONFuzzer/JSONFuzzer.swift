// libFuzzer entry point over every way JSON enters the runtime: the strict grammar
// (`StrictJSON.check`), a structured CloudEvent, a batch, and the JSON body of the binary mode,
// as the HTTP endpoint reads them. Besides "does not crash", every input checks that there is
// one grammar:
// - no reader takes what the grammar refuses, and a structured event or a batch the grammar
//   accepts is refused only for what it holds, never as "not JSON";
// - what a reader takes is JSON again: the event's data, and the event written back as a
//   CloudEvent, which reads back as the same envelope.
// A broken invariant prints what broke and aborts, which libFuzzer reports as a crash.
//
// With JSON_FUZZER_VERDICTS set to a path, each input's bytes (base64) and the grammar's verdict
// are appended there: Scripts/fuzz-json has Python's strict json judge the same inputs.

import Foundation
import TypedEvents

#if canImport(Glibc)
  import Glibc
#endif

/// `precondition` drops its message in optimized builds; a finding should say what broke.
private func require(_ condition: Bool, _ message: @autoclosure () -> String, _ input: Data) {
  guard !condition else { return }
  FileHandle.standardError.write(
    Data("JSONFuzzer: invariant broken: \(message())\ninput (base64): \(input.base64EncodedString())\n".utf8))
  abort()
}

/// Whether `error` is the grammar's refusal, as the readers word it.
private func isGrammarRefusal(_ error: any Error) -> Bool {
  "\(error)".contains("is not JSON at line")
}

/// Checks one input against the invariants above.
func check(_ data: Data) {
  let grammar: JSONSyntaxError?
  do {
    try StrictJSON.check(data)
    grammar = nil
  } catch {
    grammar = error
  }
  record(data, accepted: grammar == nil)

  var envelopes: [EventEnvelope] = []
  do {
    envelopes.append(try EventEnvelope(cloudEventJSON: data))
    require(
      grammar == nil, "a structured event was read from what the grammar refuses: \(grammar.map { "\($0)" } ?? "")",
      data)
  } catch {
    require(
      grammar != nil || !isGrammarRefusal(error), "the grammar accepts what the reader calls not JSON: \(error)", data)
  }
  do {
    envelopes += try EventEnvelope.envelopes(cloudEventBatchJSON: data)
    require(grammar == nil, "a batch was read from what the grammar refuses", data)
  } catch {
    require(
      grammar != nil || !isGrammarRefusal(error), "the grammar accepts what the batch reader calls not JSON: \(error)",
      data)
  }
  let message = CloudEventMessage(
    binding: .http,
    headers: [
      "ce-specversion": "1.0", "ce-id": "f", "ce-source": "/fuzz", "ce-type": "T", "Content-Type": "application/json",
    ],
    body: data)
  if let envelope = try? EventEnvelope(cloudEventMessage: message) {
    require(grammar == nil || data.isEmpty, "a binary event's body was taken though the grammar refuses it", data)
    envelopes.append(envelope)
  }

  for envelope in envelopes {
    if envelope.hasJSONPayload && !envelope.payload.isEmpty {
      require((try? StrictJSON.check(envelope.payload)) != nil, "the data of an event read is not JSON", data)
    }
    // What validate() passes a store keeps: JSON data is one line of strict JSON (any value: an
    // object for most events, a string, number or array for some); other data is bytes.
    if (try? envelope.validate()) != nil, envelope.hasJSONPayload {
      require((try? StrictJSON.check(envelope.payload)) != nil, "validate() passed data that is not JSON", data)
      require(!envelope.payload.contains(0x0A), "validate() passed data of more than one line", data)
    }
    guard let written = try? envelope.cloudEventJSON(source: envelope.source == nil ? "/fuzz" : nil) else { continue }
    require((try? StrictJSON.check(written)) != nil, "an event written back is not JSON", data)
    let back = try? EventEnvelope(cloudEventJSON: written)
    require(back != nil, "an event written back does not read", data)
  }
}

/// The file verdicts are appended to, when asked for.
nonisolated(unsafe) private var verdicts: UnsafeMutablePointer<FILE>? = {
  guard let path = ProcessInfo.processInfo.environment["JSON_FUZZER_VERDICTS"] else { return nil }
  return fopen(path, "a")
}()

private func record(_ data: Data, accepted: Bool) {
  guard let verdicts else { return }
  fputs("\(data.base64EncodedString()) \(accepted ? "accept" : "refuse")\n", verdicts)
  fflush(verdicts)
}

#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    check(Data(bytes: start, count: count))
    return 0
  }
#else
  /// Without libFuzzer: checks the files named on the command line, for a plain build and to
  /// replay a finding.
  @main
  enum Replay {
    static func main() throws {
      for path in CommandLine.arguments.dropFirst() {
        check(try Data(contentsOf: URL(fileURLWithPath: path)))
      }
    }
  }
#endif
