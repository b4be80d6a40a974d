import EventGenDriver
import EventSchema
import Foundation
import TestSupport
import Testing

/// Inputs that are not plain schema files get a clear error naming the path, and never a hang,
/// a crash or unbounded memory. Scripts/input-limits measures memory for the large cases.
@Suite("Input files")
struct InputFilesTests {
  let schema = "events:\n  Ping:\n    fields:\n      count: Int\n"

  func readError(_ paths: [String]) -> String? {
    do {
      _ = try InputFiles.read(try InputFiles.discover(paths))
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aFolderNamedLikeASchemaIsRefused() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/in/Odd.events.yaml", withIntermediateDirectories: true)
    #expect(readError([folder.path + "/in"]) == "\(folder.path)/in/Odd.events.yaml: is a folder, not a schema file")
  }

  @Test func pipesAndDevicesAreRefusedWithoutBlocking() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.path + "/Pipe.events.yaml"
    #expect(mkfifo(fifo, 0o644) == 0)
    // Opening a FIFO that has no writer blocks, unless opened non-blocking: this would hang.
    #expect(readError([fifo]) == "\(fifo): is not a regular file (a pipe, socket or device); give a schema file")
    // /dev/zero never ends; read whole it would take all memory.
    #expect(
      readError(["/dev/zero"]) == "/dev/zero: is not a regular file (a pipe, socket or device); give a schema file")
  }

  @Test func symbolicLinkLoopsAndDanglingLinksAreNamed() throws {
    let folder = try TemporaryFolder()
    let manager = FileManager.default
    try manager.createSymbolicLink(atPath: folder.path + "/A.events.yaml", withDestinationPath: "B.events.yaml")
    try manager.createSymbolicLink(atPath: folder.path + "/B.events.yaml", withDestinationPath: "A.events.yaml")
    #expect(readError([folder.path + "/A.events.yaml"]) == "\(folder.path)/A.events.yaml: a loop of symbolic links")

    try manager.createSymbolicLink(atPath: folder.path + "/C.events.yaml", withDestinationPath: "missing.events.yaml")
    #expect(readError([folder.path + "/C.events.yaml"]) == "\(folder.path)/C.events.yaml: no such file or directory")
  }

  @Test func aFolderThatLinksToItselfIsSearchedOnce() throws {
    let folder = try TemporaryFolder()
    try folder.write("in/sub/A.events.yaml", schema)
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/in/sub/loop", withDestinationPath: "..")
    let found = try InputFiles.discover([folder.path + "/in"])
    #expect(found == [folder.path + "/in/sub/A.events.yaml"])
  }

  @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/Huge.events.yaml"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    // Sparse: 100 MiB of size without 100 MiB of disk.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 100 << 20)
    try handle.close()
    let expected = "the file is 104857600 bytes; schema files are limited to 64 MiB (67108864 bytes)"
    #expect(readError([path]) == "\(path): \(expected)")
    // Through a link, the size is the target's.
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/Link.events.yaml", withDestinationPath: path)
    #expect(readError([folder.path + "/Link.events.yaml"]) == "\(folder.path)/Link.events.yaml: \(expected)")
  }

  @Test func aFileAtTheLimitIsRead() throws {
    let folder = try TemporaryFolder()
    let text = schema + "# " + String(repeating: "x", count: InputFiles.maximumFileSize - schema.utf8.count - 3) + "\n"
    try folder.write("Full.events.yaml", text)
    let sources = try InputFiles.read([folder.path + "/Full.events.yaml"])
    #expect(sources.first?.bytes.count == InputFiles.maximumFileSize)
    #expect(SchemaLoader.load(sources).schema?.allEvents.count == 1)
  }

  @Test(.enabled(if: getuid() != 0, "root reads any file; Scripts/input-limits checks this case as another user"))
  func anUnreadableFileIsNamed() throws {
    let folder = try TemporaryFolder()
    try folder.write("Secret.events.yaml", schema)
    try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: folder.path + "/Secret.events.yaml")
    #expect(
      readError([folder.path + "/Secret.events.yaml"])
        == "\(folder.path)/Secret.events.yaml: permission denied; the file must be readable")
  }

  @Test func tenThousandFilesLoadTogether() throws {
    let folder = try TemporaryFolder()
    for index in 0..<10_000 {
      try folder.write(
        "in/\(index % 100)/S\(index).events.yaml",
        "namespace: N\(index)\nevents:\n  E\(index):\n    fields:\n      count: Int\n")
    }
    let paths = try InputFiles.discover([folder.path + "/in"])
    #expect(paths.count == 10_000)
    let result = SchemaLoader.load(try InputFiles.read(paths))
    #expect(result.diagnostics.isEmpty)
    #expect(result.schema?.allEvents.count == 10_000)
  }
}
