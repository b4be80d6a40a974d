import EventCodegen
import EventGenDriver
import Foundation
import TestSupport
import Testing

/// `generate` never leaves a half-written file, never touches a file it did not write, and
/// `check` never writes.
@Suite("Generator file safety")
struct FileSafetyTests {
  /// `files` schema files of `events` events each; `extra` adds a field to every event.
  static func writeSchemas(in folder: TemporaryFolder, files: Int, events: Int, extra: Bool) throws {
    for file in 0..<files {
      var text = "namespace: N\(file)\nevents:\n"
      for event in 0..<events {
        text +=
          "  S\(file)E\(event):\n    fields:\n      id: UUID\n      count: Int\n      tags: [String]\n      at: Date\n"
        if extra { text += "      note: String?\n" }
      }
      try folder.write("in/S\(file).events.yaml", text)
    }
  }

  /// Every entry of a folder with its bytes and modification time.
  static func snapshot(_ path: String) throws -> [String: (Data, Date)] {
    var result: [String: (Data, Date)] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: path) {
      let file = path + "/" + name
      let date = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date ?? .distantPast
      result[name] = (try Data(contentsOf: URL(fileURLWithPath: file)), date)
    }
    return result
  }

  @Test func aRunKilledMidWriteLeavesEveryFileOldOrNew() async throws {
    let folder = try TemporaryFolder()
    let output = folder.path + "/out"
    try Self.writeSchemas(in: folder, files: 40, events: 10, extra: false)
    let old = try #require(try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources()).files)
    try Self.writeSchemas(in: folder, files: 40, events: 10, extra: true)
    let new = try #require(try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources()).files)
    let oldByName = Dictionary(uniqueKeysWithValues: old.map { ($0.name, Data($0.contents.utf8)) })
    let newByName = Dictionary(uniqueKeysWithValues: new.map { ($0.name, Data($0.contents.utf8)) })
    #expect(Set(oldByName.keys) == Set(newByName.keys) && oldByName.allSatisfy { newByName[$0.key] != $0.value })

    // When a whole run starts writing here, and how long its writing lasts, to spread the kills
    // over the writing: timed on the whole run, most kills landed before it or after it.
    _ = try OutputWriter.write(old, to: .folder(output))
    let timing = try await writingWindow(["generate", folder.path + "/in", "--output", output], in: output)

    var midWrite = 0
    var untouched = 0
    var attempts = 0
    while attempts < 60 && (attempts < 10 || midWrite == 0) {
      _ = try OutputWriter.write(old, to: .folder(output))
      let before = try modificationDates(in: output)
      let process = try launch(["generate", folder.path + "/in", "--output", output])
      // Kill while writing: wait for the first sign of it, then a varied part of its length.
      let launched = Date()
      while Date().timeIntervalSince(launched) < timing.start * 3 + 5, try modificationDates(in: output) == before {
        // Every 2 ms until the run nears its writing, then every 0.2 ms. Each look reads 40
        // files' dates: looking every 0.2 ms all along took a core from the run it waits for.
        let nearWriting = Date().timeIntervalSince(launched) > timing.start * 0.7
        try await Task.sleep(nanoseconds: nearWriting ? 200_000 : 2_000_000)
      }
      try await Task.sleep(for: .seconds(timing.length * Double(attempts % 10) / 10))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      attempts += 1

      var replaced = 0
      for name in try FileManager.default.contentsOfDirectory(atPath: output) {
        if name.hasPrefix(".") {
          // A killed run's temporary file: never a `.swift` name, so never compiled.
          #expect(name.hasSuffix(".eventgen-tmp"), "\(name)")
          continue
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output + "/" + name))
        if bytes == newByName[name] {
          replaced += 1
        } else {
          #expect(bytes == oldByName[name], "\(name) is neither the old file nor the new one after a kill")
        }
      }
      if replaced > 0 && replaced < new.count { midWrite += 1 }
      if replaced == 0 { untouched += 1 }
    }
    print(
      "killed \(attempts) runs writing for \(String(format: "%.3f", timing.length)) s after \(String(format: "%.2f", timing.start)) s: \(midWrite) while writing, \(untouched) before writing"
    )
    #expect(midWrite > 0, "no kill landed while files were being written, in \(attempts) attempts")

    // The next run finishes the job and removes the temporary files of the killed ones.
    #expect(try await run(["generate", folder.path + "/in", "--output", output]) == 0)
    let after = try FileManager.default.contentsOfDirectory(atPath: output)
    #expect(Set(after) == Set(newByName.keys))
    for (name, bytes) in newByName {
      #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/" + name)) == bytes)
    }
  }

  @Test func checkNeverWrites() async throws {
    let folder = try TemporaryFolder()
    let output = folder.path + "/out"
    try Self.writeSchemas(in: folder, files: 3, events: 2, extra: false)
    let files = try #require(try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources()).files)
    _ = try OutputWriter.write(files, to: .folder(output))
    // Stale, missing, left over from a removed schema, and hand-written.
    try folder.write("out/S0.events.swift", "// Generated by eventgen from S0.events.yaml.\n// stale\n")
    try FileManager.default.removeItem(atPath: output + "/S1.events.swift")
    try folder.write("out/Gone.events.swift", "// Generated by eventgen from Gone.events.yaml.\n")
    try folder.write("out/Mine.swift", "struct Mine {}\n")
    let past = Date(timeIntervalSince1970: 1_000_000)
    for name in try FileManager.default.contentsOfDirectory(atPath: output) {
      try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output + "/" + name)
    }
    let before = try Self.snapshot(output)

    #expect(try OutputWriter.check(files, against: .folder(output)).count == 3)
    #expect(try await run(["check", folder.path + "/in", "--output", output]) == 1)
    #expect(try await run(["check", folder.path + "/in", "--output", folder.path + "/nowhere"]) == 1)

    let after = try Self.snapshot(output)
    #expect(Set(after.keys) == Set(before.keys))
    for (name, (bytes, date)) in before {
      #expect(after[name]?.0 == bytes && after[name]?.1 == date, "check changed \(name)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/nowhere"))
  }

  @Test func aFileEventgenDidNotWriteIsNeverOverwrittenEvenWithForce() throws {
    let folder = try TemporaryFolder()
    try Self.writeSchemas(in: folder, files: 1, events: 1, extra: false)
    let files = try #require(try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources()).files)
    try folder.write("out/S0.events.swift", "// My own code, by chance named like a generated file.\n")
    for force in [false, true] {
      #expect(throws: InputError.self) {
        try OutputWriter.write(files, to: .folder(folder.path + "/out"), force: force)
      }
      #expect(try folder.read("out/S0.events.swift") == "// My own code, by chance named like a generated file.\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out") == ["S0.events.swift"])
    }
  }

  @Test func foreignFilesStopTheRunBeforeAnythingIsWritten() async throws {
    let folder = try TemporaryFolder()
    try Self.writeSchemas(in: folder, files: 1, events: 1, extra: false)
    try folder.write("out/Mine.swift", "struct Mine {}\n")
    #expect(try await run(["generate", folder.path + "/in", "--output", folder.path + "/out"]) == 2)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out") == ["Mine.swift"])
    #expect(try await run(["generate", folder.path + "/in", "--output", folder.path + "/out", "--force"]) == 0)
    #expect(try folder.read("out/Mine.swift") == "struct Mine {}\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out").count == 2)
  }

  @Test func foldersAndPipesNamedLikeSwiftFilesNeitherTrapNorHang() throws {
    let folder = try TemporaryFolder()
    let output = folder.path + "/out"
    try Self.writeSchemas(in: folder, files: 1, events: 1, extra: false)
    let files = try #require(try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources()).files)
    // Foundation's FileHandle.readData traps on a folder, and opening a FIFO blocks.
    try FileManager.default.createDirectory(atPath: output + "/Folder.swift", withIntermediateDirectories: true)
    #expect(mkfifo(output + "/Pipe.swift", 0o644) == 0)
    #expect(throws: InputError.self) { try OutputWriter.write(files, to: .folder(output)) }
    #expect(try OutputWriter.write(files, to: .folder(output), force: true).written.count == 1)
    #expect(try OutputWriter.check(files, against: .folder(output)).isEmpty)

    try FileManager.default.removeItem(atPath: output + "/S0.events.swift")
    try FileManager.default.createDirectory(atPath: output + "/S0.events.swift", withIntermediateDirectories: true)
    #expect(throws: InputError.self) { try OutputWriter.write(files, to: .folder(output), force: true) }
    #expect(
      try OutputWriter.check(files, against: .folder(output)) == [
        "\(output)/S0.events.swift: is a folder; move it away, eventgen never overwrites it\n"
      ])
  }

  @Test func temporaryFilesOfDeadRunsAreRemovedAndThoseOfLiveRunsKept() throws {
    let folder = try TemporaryFolder()
    try Self.writeSchemas(in: folder, files: 1, events: 1, extra: false)
    let files = try #require(try Pipeline.plan([folder.path + "/in"], renderer: SwiftSources()).files)
    // A process that has exited: its pid names no running process (until reused, long after).
    let finished = try launch(["--version"])
    finished.waitUntilExit()
    let dead = ".S0.events.swift.\(finished.processIdentifier)-7.eventgen-tmp"
    let live = ".S0.events.swift.\(getpid())-7.eventgen-tmp"
    try folder.write("out/" + dead, "half a file")
    try folder.write("out/" + live, "another run's file, still being written")
    _ = try OutputWriter.write(files, to: .folder(folder.path + "/out"))
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out"))
    #expect(!names.contains(dead))
    #expect(names.contains(live))
  }

  /// The names and modification times of a folder's entries, hidden ones included; an entry
  /// renamed away between listing and asking (a temporary file) counts with no date.
  private func modificationDates(in folder: String) throws -> [String: Date] {
    var result: [String: Date] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
      result[name] = attributes?[.modificationDate] as? Date ?? .distantPast
    }
    return result
  }

  // MARK: Running eventgen

  private func launch(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = try eventgen()
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Seconds from launch to the first file `arguments`' run changes in `output`, and from then
  /// to its end; the run must succeed.
  private func writingWindow(_ arguments: [String], in output: String) async throws -> (start: Double, length: Double) {
    let before = try modificationDates(in: output)
    let process = try launch(arguments)
    let launched = Date()
    while process.isRunning, try modificationDates(in: output) == before {
      try await Task.sleep(nanoseconds: 500_000)
    }
    let writing = Date()
    while process.isRunning { try await Task.sleep(nanoseconds: 500_000) }
    #expect(process.terminationStatus == 0)
    return (writing.timeIntervalSince(launched), max(Date().timeIntervalSince(writing), 0.001))
  }

  private func run(_ arguments: [String]) async throws -> Int32 {
    try await runChildProcess(try eventgen(), arguments).status
  }
}
