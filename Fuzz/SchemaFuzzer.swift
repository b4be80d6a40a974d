// libFuzzer entry point over the schema front end (YAML → nodes → decoder → validator), for
// `.events.yaml` files and AsyncAPI documents alike, and, for inputs that validate, the code
// generator. Built by Scripts/fuzz, not by SwiftPM: a fuzzer
// product in the package would make SwiftPM build the plugins' eventgen tool with libFuzzer's
// `main` too, and the link fails.
//
// Besides "does not crash", every input checks the front end's contract:
// - a run has a schema exactly when it has no errors;
// - every diagnostic points into the input: line ≥ 1, column ≥ 1, line ≤ lines + 1;
// - a schema renders, and rendering it twice gives the same text.
// A broken invariant prints what broke and aborts, which libFuzzer reports as a crash.

import EventCodegen
import EventSchema

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `precondition` drops its message in optimized builds; a finding should say what broke.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  fputs("SchemaFuzzer: invariant broken: \(message())\n", stderr)
  abort()
}

/// Splits the input at a line `#--` into two files, so one input can exercise cross-file checks.
private func sources(of bytes: [UInt8]) -> [SchemaSource] {
  let separator = Array("\n#--\n".utf8)
  var cut: Int?
  if bytes.count >= separator.count {
    for start in 0...(bytes.count - separator.count)
    where bytes[start..<(start + separator.count)].elementsEqual(separator) {
      cut = start
      break
    }
  }
  guard let cut else { return [SchemaSource(path: "A.events.yaml", bytes: bytes)] }
  return [
    SchemaSource(path: "A.events.yaml", bytes: Array(bytes[..<(cut + 1)])),
    SchemaSource(path: "B.events.yaml", bytes: Array(bytes[(cut + separator.count)...])),
  ]
}

/// The number of lines as libyaml counts them: LF, CR, CR LF, and NEL, LS and PS in UTF-8.
private func lineCount(_ bytes: [UInt8]) -> Int {
  var lines = 1
  var index = 0
  while index < bytes.count {
    switch bytes[index] {
    case 0x0A: lines += 1
    case 0x0D where index + 1 >= bytes.count || bytes[index + 1] != 0x0A: lines += 1
    case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: lines += 1
    case 0xE2
    where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
      lines += 1
    default: break
    }
    index += 1
  }
  return lines
}

@_cdecl("LLVMFuzzerTestOneInput")
public func schemaFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let files = sources(of: bytes)
  // An AsyncAPI document's `$ref` to another file reads the run's other file, never the disk.
  let result = SchemaLoader.load(files) { path in
    guard let file = files.first(where: { $0.path == path }) else {
      throw SchemaLoader.ReadFailure(description: "\(path): not one of the fuzzer's files")
    }
    return file.bytes
  }

  require((result.schema == nil) == result.hasErrors, "a schema must come with no errors, and errors with no schema")
  let lines = Dictionary(uniqueKeysWithValues: files.map { ($0.path, lineCount($0.bytes)) })
  for diagnostic in result.diagnostics {
    let location = diagnostic.location
    guard let last = lines[location.file] else {
      require(false, "diagnostic in a file the run did not read: \(diagnostic)")
      continue
    }
    require(
      location.line >= 1 && location.line <= last + 1 && location.column >= 1,
      "diagnostic outside its file: \(diagnostic)")
    require(!diagnostic.message.isEmpty, "empty diagnostic at \(location)")
  }

  if let schema = result.schema {
    let generator = SwiftSourceRenderer()
    for (index, file) in schema.files.enumerated() {
      let first = generator.render(file, of: schema, holdsCatalog: index == 0)
      require(
        first == generator.render(file, of: schema, holdsCatalog: index == 0),
        "rendering \(file.path) is not deterministic")
    }
  }
  return 0
}
