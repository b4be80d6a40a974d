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
let repetitions = quick ? 2 : 9
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

/// A run's rate, and the CPU time the process spent a line or event (user and system, all
/// threads), in microseconds.
struct Measured {
  var rate: Double
  var cpuMicroseconds: Double
  /// Of `cpuMicroseconds`, the kernel's.
  var systemMicroseconds: Double
  /// Context switches of the process's threads, voluntary (a thread that sleeps) and not.
  var switches: Double
}

/// What the process has used so far: CPU time, user and system, and the kernel's share of it,
/// in seconds; context switches.
func usage() -> (total: Double, system: Double, switches: Double) {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return (
    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + system, system,
    Double(usage.ru_nvcsw + usage.ru_nivcsw)
  )
}

/// What a run of `count` lines or events that began at `start`, with `used` used, measured.
func measured(
  count: Int, since start: ContinuousClock.Instant, used: (total: Double, system: Double, switches: Double)
) -> Measured {
  let now = usage()
  return Measured(
    rate: Double(count) / seconds(ContinuousClock.now - start),
    cpuMicroseconds: (now.total - used.total) * 1e6 / Double(count),
    systemMicroseconds: (now.system - used.system) * 1e6 / Double(count),
    switches: (now.switches - used.switches) / Double(count))
}

/// Lines per second of `write` + `fsync` of one line each, to a new file in `folder`.
func bareFsyncRate(lines: Int) throws -> Measured {
  let url = folder.appendingPathComponent("bare-\(UUID().uuidString)")
  let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
  guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
  defer {
    close(descriptor)
    try? FileManager.default.removeItem(at: url)
  }
  let start = ContinuousClock.now
  let used = usage()
  for _ in 0..<lines {
    guard write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
  }
  return measured(count: lines, since: start, used: used)
}

/// Events per second appended to a new `EventLog` (fsync each append) by `writers` tasks, each
/// appending one event at a time; all of them `events` events. `onWriterThread`: the tasks run
/// on the log's writer thread (`EventLog.writerExecutor`).
func logRate(
  writers: Int, events: Int, durability: EventLog.Durability = .fsyncEachAppend, onWriterThread: Bool = false
) async throws -> Measured {
  let log = EventLog(url: folder.appendingPathComponent("log-\(UUID().uuidString).jsonl"), durability: durability)
  defer { try? FileManager.default.removeItem(at: log.url) }
  let envelopes = try (0..<events).map { try EventEnvelope(Tick(index: $0)) }
  try await log.append(envelopes[0])  // the file exists: its creation is not timed
  let start = ContinuousClock.now
  let used = usage()
  try await withThrowingTaskGroup(of: Void.self) { group in
    for writer in 0..<writers {
      group.addTask(executorPreference: onWriterThread ? log.writerExecutor : nil) {
        for index in stride(from: writer, to: events, by: writers) { try await log.append(envelopes[index]) }
      }
    }
    try await group.waitForAll()
  }
  return measured(count: events, since: start, used: used)
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

// MARK: Checkpoint notes

/// A `FileCheckpoint` without its notes: the protocol's default `noteHandled`, which keeps
/// nothing between saves (what every reader did before issue 58).
struct SavesOnly: EventCheckpoint {
  let file: FileCheckpoint<EventLog.Position>
  func load() async throws -> EventLog.Position? { try await file.load() }
  func save(_ position: EventLog.Position) async throws { try await file.save(position) }
}

/// A log of `count` events for the readers to read, written without fsync.
func readableLog(count: Int) async throws -> EventLog {
  let log = EventLog(
    url: folder.appendingPathComponent("read-\(UUID().uuidString).jsonl"), durability: .operatingSystem)
  try await log.append(contentsOf: (0..<count).map { try EventEnvelope(Tick(index: $0)) })
  return log
}

/// Events per second an `EventConsumer` hands to a loop that does nothing with them, reading
/// `log` whole from a new checkpoint file, with each event noted as handled or not.
func consumerRate(_ log: EventLog, count: Int, noting: Bool) async throws -> Double {
  let file = FileCheckpoint<EventLog.Position>(url: folder.appendingPathComponent("cp-\(UUID().uuidString)"))
  defer {
    try? FileManager.default.removeItem(at: file.url)
    try? FileManager.default.removeItem(
      at: folder.appendingPathComponent(".\(file.url.lastPathComponent).handled"))
  }
  let consumer = EventConsumer(store: log, catalog: EventCatalog([Tick.self]), batchSize: 100)
  func read(_ checkpoint: some EventCheckpoint<EventLog.Position>) async throws -> Double {
    var seen = 0
    let start = ContinuousClock.now
    for try await _ in consumer.events(from: checkpoint) {
      seen += 1
      if seen == count { break }
    }
    return Double(count) / seconds(ContinuousClock.now - start)
  }
  return noting ? try await read(file) : try await read(SavesOnly(file: file))
}

/// Microseconds a call: `FileCheckpoint.noteHandled`, and a bare `pwrite` of a record of the same
/// size at offset 0 of an open file (the least a note that survives the process can cost).
func noteCost(calls: Int) async throws -> (note: Double, bare: Double) {
  let file = FileCheckpoint<EventLog.Position>(url: folder.appendingPathComponent("note-\(UUID().uuidString)"))
  try await file.save(EventLog.Position(offset: 0))
  var start = ContinuousClock.now
  for call in 0..<calls { try await file.noteHandled(EventLog.Position(offset: Int64(call))) }
  let note = seconds(ContinuousClock.now - start) / Double(calls) * 1e6
  let record = [UInt8](repeating: UInt8(ascii: " "), count: 40)
  let descriptor = open(
    folder.appendingPathComponent("pwrite-\(UUID().uuidString)").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
  defer { close(descriptor) }
  start = ContinuousClock.now
  for _ in 0..<calls { guard pwrite(descriptor, record, record.count, 0) == record.count else { break } }
  let bare = seconds(ContinuousClock.now - start) / Double(calls) * 1e6
  return (note, bare)
}

var bare: [Measured] = []
var logs: [Int: [Measured]] = [:]
/// One writer without fsync: what an append costs besides the disk.
var unsynced: [Measured] = []
/// One writer on the log's writer thread, with and without fsync.
var onWriter: [Measured] = []
var onWriterUnsynced: [Measured] = []
for repetition in 1...repetitions {
  print("repetition \(repetition) of \(repetitions)…")
  bare.append(try bareFsyncRate(lines: eventsPerRun / 4))
  for writers in writerCounts {
    // One writer makes one fsync an event: fewer events keep its run as long as the others'.
    let events = writers == 1 ? eventsPerRun / 4 : eventsPerRun
    logs[writers, default: []].append(try await logRate(writers: writers, events: events))
  }
  unsynced.append(try await logRate(writers: 1, events: eventsPerRun, durability: .operatingSystem))
  onWriter.append(try await logRate(writers: 1, events: eventsPerRun / 4, onWriterThread: true))
  onWriterUnsynced.append(
    try await logRate(writers: 1, events: eventsPerRun, durability: .operatingSystem, onWriterThread: true))
}

let readCount = eventsPerRun * 10
let readable = try await readableLog(count: readCount)
var noted: [Double] = []
var savesOnly: [Double] = []
var noteMicroseconds: [Double] = []
var pwriteMicroseconds: [Double] = []
for repetition in 1...repetitions {
  print("checkpoint notes: repetition \(repetition) of \(repetitions)…")
  // Alternating which goes first, so that neither always meets a warmer cache.
  if repetition % 2 == 0 {
    noted.append(try await consumerRate(readable, count: readCount, noting: true))
    savesOnly.append(try await consumerRate(readable, count: readCount, noting: false))
  } else {
    savesOnly.append(try await consumerRate(readable, count: readCount, noting: false))
    noted.append(try await consumerRate(readable, count: readCount, noting: true))
  }
  let (note, pwrite) = try await noteCost(calls: readCount)
  noteMicroseconds.append(note)
  pwriteMicroseconds.append(pwrite)
}

func rate(_ values: [Double]) -> String {
  "\(Int(median(values).rounded())) (\(Int((values.min() ?? 0).rounded()))–\(Int((values.max() ?? 0).rounded())))"
}
/// A row's rate cell and its CPU cell: median (smallest–largest), and the median CPU time.
func cells(_ values: [Measured]) -> String {
  "\(rate(values.map(\.rate))) | "
    + String(
      format: "%.1f (%.1f) | %.1f", median(values.map(\.cpuMicroseconds)), median(values.map(\.systemMicroseconds)),
      median(values.map(\.switches)))
}
let one = median((logs[1] ?? []).map(\.rate))
let bareRate = median(bare.map(\.rate))
func ratios(_ values: [Measured]) -> String {
  String(format: "%.2f× | %.2f×", median(values.map(\.rate)) / one, median(values.map(\.rate)) / bareRate)
}
/// Medians of a row's CPU time an event, in µs: all of it, the process's own code's, the kernel's.
func cpu(_ values: [Measured]) -> Double { median(values.map(\.cpuMicroseconds)) }
func system(_ values: [Measured]) -> Double { median(values.map(\.systemMicroseconds)) }
func user(_ values: [Measured]) -> Double { cpu(values) - system(values) }
/// `value` in µs with one decimal; `seconds`: it is in seconds.
func microseconds(_ value: Double, seconds: Bool = true) -> String {
  String(format: "%.1f", seconds ? value * 1e6 : value)
}
var text = """
  # EventLog writes against the disk

  Written by `Benchmarks/writes.sh`\(quick ? " --quick (tiny sizes: these numbers mean nothing)" : ""). \
  \(repetitions) repetitions, taking turns; each cell is the median, with the smallest and largest \
  in brackets. *Bare fsync loop*: `write` and `fsync` of one line of an event's length, \(eventsPerRun / 4) \
  times, on the same filesystem: the most syncs a second the disk gives one writer. *EventLog*: \
  `await log.append(event)`, one event a call, from N concurrent tasks (\(eventsPerRun / 4) events \
  for one writer, \(eventsPerRun) for more), fsync each append (the default). Appends that arrive \
  while the log's writer thread syncs share its next fsync. *CPU*: the process's CPU time (user \
  and system, every thread) over the run, divided by its lines or events; *context switches*: \
  the same for the process's threads' context switches (`getrusage`), a thread that sleeps and \
  is woken counting one.

  | writer | events/s | CPU µs an event (of it, the kernel's) | context switches an event | against one writer | against the bare fsync loop |
  |---|---:|---:|---:|---:|---:|
  | bare fsync loop (lines/s) | \(cells(bare)) | | 1.00× |

  """
for writers in writerCounts {
  let values = logs[writers] ?? []
  text += "| EventLog, \(writers) task\(writers == 1 ? "" : "s") | \(cells(values)) | \(ratios(values)) |\n"
}
text += "| EventLog, 1 task, no fsync (`.operatingSystem`) | \(cells(unsynced)) | | |\n"
text += "| EventLog, 1 task on the writer thread (`log.writerExecutor`) | \(cells(onWriter)) | \(ratios(onWriter)) |\n"
text += "| EventLog, 1 task on the writer thread, no fsync | \(cells(onWriterUnsynced)) | | |\n"
text += """

  The rows without fsync are what an append costs besides the disk: validating and encoding the
  event, and, in the pool, handing it to the writer thread and back. A task that prefers the
  log's writer thread as its executor (`withTaskExecutorPreference(log.writerExecutor)`) is
  resumed on that thread: the context switches column shows what that leaves out. In this run, on the writer thread, an \
  append took \(microseconds(1 / median(onWriter.map(\.rate)) - 1 / bareRate)) µs longer than a \
  line of the bare loop, and used \(microseconds(cpu(onWriter) - cpu(bare), seconds: false)) µs more \
  CPU (\(microseconds(user(onWriter) - user(bare), seconds: false)) µs in the process's own code, \
  \(microseconds(system(onWriter) - system(bare), seconds: false)) µs in the kernel); without fsync \
  the same append uses \(microseconds(cpu(onWriterUnsynced), seconds: false)) µs of CPU in all. \
  Where the extra time and the extra CPU are about equal, the distance is the appends' own work: \
  one thread does it and waits for the disk in turn, so the work adds to each fsync's wait. With fsync, that work takes more \
  CPU than the run without it shows, where the thread never sleeps. (Linux counts CPU time by \
  scheduler ticks: the split between the process and the kernel is approximate for runs this \
  short.)

  Goals (issue 57): 16 writers at least 8× the rate of one; one writer within 1.2× of the bare \
  loop (at least 0.83× its rate).

  ## What a reader pays to note each event

  An `EventConsumer` reads a log of \(readCount) events whole (batches of 100, a loop that does \
  nothing with them), from a new `FileCheckpoint`: with each event noted as handled \
  (`noteHandled`, issue 58: a record beside the checkpoint, so a reader restarted after its \
  process died redelivers one event at most), and with the protocol's default, which notes \
  nothing (the batch since the last save comes again). Then \(readCount) calls of \
  `noteHandled` alone, against a bare `pwrite` of 40 bytes at offset 0 of an open file.

  | reader | events/s or µs a call | against the other |
  |---|---:|---:|
  | consumer, noting each event | \(rate(noted)) | \(String(format: "%.2f×", median(noted) / median(savesOnly))) |
  | consumer, saves only | \(rate(savesOnly)) | 1.00× |
  | `FileCheckpoint.noteHandled`, µs a call | \(String(format: "%.1f (%.1f–%.1f)", median(noteMicroseconds), noteMicroseconds.min() ?? 0, noteMicroseconds.max() ?? 0)) | \(String(format: "%.1f×", median(noteMicroseconds) / median(pwriteMicroseconds))) |
  | bare `pwrite`, µs a call | \(String(format: "%.1f (%.1f–%.1f)", median(pwriteMicroseconds), pwriteMicroseconds.min() ?? 0, pwriteMicroseconds.max() ?? 0)) | 1.0× |

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
