// `Benchmarks/writes.sh [--quick] [--output FILE]`
//
// `EventLog` appends against what the disk itself allows, in one process and one run: a loop of
// `write` and `fsync` of one line on the same filesystem (the machine's fsync rate), then one
// event per append from 1, 4, 16 and 64 concurrent tasks. The two take turns, repetition by
// repetition, so both meet the same state of the disk. Writes BENCHMARKS-WRITES.md (or FILE).
// `--quick` runs tiny sizes (CI's smoke run: its numbers mean nothing).
import Foundation
@_spi(Generated) import TypedEvents

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let output = arguments.firstIndex(of: "--output").flatMap { arguments.dropFirst($0 - arguments.startIndex + 1).first }
let repetitions = quick ? 2 : 5
let writerCounts = [1, 4, 16, 64]
/// Events each run appends (spread over its writers), and lines the bare loop syncs.
let eventsPerRun = quick ? 64 : 1_024
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typed-events-writes-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// A small event, as a domain event is.
struct Tick: Event, FieldCodable {
  static var eventName: String { "Bench.Tick" }
  static var eventVersion: Int { 1 }
  var index: Int

  init(index: Int) {
    self.index = index
  }

  init<Reader: FieldReader>(fields reader: Reader) throws(Reader.Failure) {
    try self.init(index: reader.decode(Int.self, forKey: "index"))
  }

  func write<Writer: FieldWriter>(fields writer: inout Writer) {
    writer.encode(index, forKey: "index")
  }
}

/// An event's line as the log writes it, for the bare loop to write.
let line: [UInt8] = try await {
  let probe = EventLog(url: folder.appendingPathComponent("probe.jsonl"), durability: .operatingSystem)
  try await probe.append(EventEnvelope(Tick(index: 0)))
  return Array(try Data(contentsOf: probe.url))
}()

/// Lines per second of `write` + `fsync` of one line each, to a new file in `folder`.
func bareFsyncRate(lines: Int) throws -> Double {
  let url = folder.appendingPathComponent("bare-\(UUID().uuidString)")
  let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
  guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
  defer {
    close(descriptor)
    try? FileManager.default.removeItem(at: url)
  }
  let start = ContinuousClock.now
  for _ in 0..<lines {
    guard write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
  }
  return Double(lines) / seconds(ContinuousClock.now - start)
}

/// Events per second appended to a new `EventLog` (fsync each append) by `writers` tasks, each
/// appending one event at a time; all of them `events` events.
func logRate(writers: Int, events: Int, durability: EventLog.Durability = .fsyncEachAppend) async throws -> Double {
  let log = EventLog(url: folder.appendingPathComponent("log-\(UUID().uuidString).jsonl"), durability: durability)
  defer { try? FileManager.default.removeItem(at: log.url) }
  let envelopes = try (0..<events).map { try EventEnvelope(Tick(index: $0)) }
  try await log.append(envelopes[0])  // the file exists: its creation is not timed
  let start = ContinuousClock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for writer in 0..<writers {
      group.addTask {
        for index in stride(from: writer, to: events, by: writers) { try await log.append(envelopes[index]) }
      }
    }
    try await group.waitForAll()
  }
  return Double(events) / seconds(ContinuousClock.now - start)
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

var bare: [Double] = []
var logs: [Int: [Double]] = [:]
/// One writer without fsync: what an append costs besides the disk.
var unsynced: [Double] = []
for repetition in 1...repetitions {
  print("repetition \(repetition) of \(repetitions)…")
  bare.append(try bareFsyncRate(lines: eventsPerRun / 4))
  for writers in writerCounts {
    // One writer makes one fsync an event: fewer events keep its run as long as the others'.
    let events = writers == 1 ? eventsPerRun / 4 : eventsPerRun
    logs[writers, default: []].append(try await logRate(writers: writers, events: events))
  }
  unsynced.append(try await logRate(writers: 1, events: eventsPerRun, durability: .operatingSystem))
}

func rate(_ values: [Double]) -> String {
  "\(Int(median(values).rounded())) (\(Int((values.min() ?? 0).rounded()))–\(Int((values.max() ?? 0).rounded())))"
}
let one = median(logs[1] ?? [])
var text = """
  # EventLog writes against the disk

  Written by `Benchmarks/writes.sh`\(quick ? " --quick (tiny sizes: these numbers mean nothing)" : ""). \
  \(repetitions) repetitions, taking turns; each cell is the median, with the smallest and largest \
  in brackets. *Bare fsync loop*: `write` and `fsync` of one line of an event's length, \(eventsPerRun / 4) \
  times, on the same filesystem: the most syncs a second the disk gives one writer. *EventLog*: \
  `await log.append(event)`, one event a call, from N concurrent tasks (\(eventsPerRun / 4) events \
  for one writer, \(eventsPerRun) for more), fsync each append (the default). Appends that arrive \
  while the log's writer thread syncs share its next fsync.

  | writer | events/s | against one writer | against the bare fsync loop |
  |---|---:|---:|---:|
  | bare fsync loop (lines/s) | \(rate(bare)) | | 1.00× |

  """
for writers in writerCounts {
  let values = logs[writers] ?? []
  text += "| EventLog, \(writers) task\(writers == 1 ? "" : "s") | \(rate(values)) | "
  text += String(format: "%.2f× | %.2f× |\n", median(values) / one, median(values) / median(bare))
}
text += "| EventLog, 1 task, no fsync (`.operatingSystem`) | \(rate(unsynced)) | | |\n"
text += """

  The last row is what an append costs besides the disk: validating and encoding the event,
  and handing it to the writer thread and back.

  Goals (issue 57): 16 writers at least 8× the rate of one; one writer within 1.2× of the bare \
  loop (at least 0.83× its rate).

  """
print(text)
let destination =
  output
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("BENCHMARKS-WRITES.md").path
if !quick || output != nil {
  try text.write(toFile: destination, atomically: true, encoding: .utf8)
  print("written to \(destination)")
}
