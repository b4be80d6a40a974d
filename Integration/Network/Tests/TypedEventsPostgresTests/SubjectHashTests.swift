#if PostgreSQL
  import Foundation
  import PostgresNIO
  import TestSupport
  import Testing
  import TypedEvents
  import TypedEventsPostgres

  extension PostgresEventStoreTests {
    /// Whether python3 runs here, for the test that checks the store's partition hash against
    /// Python's `hashlib`; nil when it does.
    static let pythonMissing: String? = {
      let probe = try? runChildProcessBlocking(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import hashlib"])
      return probe?.status == 0 ? nil : "python3 is not installed: it computes the partition hash the docs give"
    }()

    /// The docs say how another language computes an event's partition: the MD5 of the
    /// subject's UTF-8 bytes, the first 4 bytes big-endian, the top bit cleared. Python's
    /// `hashlib`, following that sentence, must give the store's `subject_hash` for every subject.
    @Test(.enabled(if: pythonMissing == nil, Comment(rawValue: pythonMissing ?? "")))
    func thePartitionHashIsWhatTheDocsSayAndPythonComputesTheSame() async throws {
      var random = SplitMix64(state: 0x5B1EC7)
      let subjects =
        ["", "a", "listing-42", "Ünïcödé 🎉", "6F9619FF-8B86-D011-B42D-00C04FC964FF", "\u{1}x"]
        + (0..<200).map { _ in
          String((0..<Int(random.next() % 40)).map { _ in Character(UnicodeScalar(UInt8(32 + random.next() % 95))) })
        }
      try await withStore(listening: false) { store in
        var fromServer: [String: Int] = [:]
        for subject in subjects {
          let rows = try await store.client.query(
            "SELECT (('x' || substr(md5(\(subject)), 1, 8))::bit(32)::integer) & 2147483647")
          for try await hash in rows.decode(Int.self) { fromServer[subject] = hash }
        }
        // The store computes the column with exactly that expression: one stored event agrees.
        try await store.append([
          EventEnvelope(
            id: "hash-probe", source: "/tests", time: nil, name: "Inventory.BoxProvisioned", version: 1,
            subject: subjects[3], payload: Data("{}".utf8))
        ])
        let stored = try await store.client.query(
          "SELECT subject_hash FROM \(unescaped: store.schema).events WHERE id = 'hash-probe'")
        for try await hash in stored.decode(Int.self) { #expect(hash == fromServer[subjects[3]]) }

        let script = """
          import hashlib, json, sys
          for subject in json.load(sys.stdin):
              print(int.from_bytes(hashlib.md5(subject.encode("utf-8")).digest()[:4], "big") & 0x7FFFFFFF)
          """
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("subjects-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONEncoder().encode(subjects).write(to: input)
        let python = try await runChildProcess(
          URL(fileURLWithPath: "/bin/sh"), ["-c", "python3 -c '\(script)' < \(input.path)"])
        #expect(python.status == 0, "\(python.errors)")
        let fromPython = python.output.split(separator: "\n").compactMap { Int($0) }
        #expect(fromPython.count == subjects.count)
        for (subject, hash) in zip(subjects, fromPython) {
          #expect(fromServer[subject] == hash, "subject \(subject.debugDescription)")
        }
      }
    }
  }
#endif
