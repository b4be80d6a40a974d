import Foundation
import MallocInterposerSwift

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// One measured row: the median of several repetitions, in nanoseconds per operation, and the
/// allocations per operation of one repetition.
struct Measurement {
  var name: String
  var nanoseconds: Double
  var allocations: Double?
}

enum Harness {
  /// Repetitions per measurement; the median is reported.
  nonisolated(unsafe) static var repetitions = 7
  /// Whether allocations are counted: only when the interposer is preloaded (`run.sh` does it).
  static let countsAllocations: Bool = {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    let before = MallocInterposerSwift.getStatistics().mallocCount
    blackHole(UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8).deallocate())
    let counted = MallocInterposerSwift.getStatistics().mallocCount > before
    MallocInterposerSwift.unhook()
    return counted
  }()

  /// Times `operations` runs of `body` (which runs `operations` operations itself), several times.
  static func measure(_ name: String, operations: Int, _ body: () -> Void) -> Measurement {
    body()  // warm up
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      let end = DispatchTime.now().uptimeNanoseconds
      samples.append(Double(end - start) / Double(operations))
    }
    samples.sort()
    var allocations: Double?
    if countsAllocations {
      MallocInterposerSwift.reset()
      MallocInterposerSwift.hook()
      body()
      MallocInterposerSwift.unhook()
      allocations = Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(operations)
    }
    return Measurement(name: name, nanoseconds: samples[samples.count / 2], allocations: allocations)
  }

  /// Times an async body.
  static func measure(_ name: String, operations: Int, _ body: () async -> Void) async -> Measurement {
    await body()
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let start = DispatchTime.now().uptimeNanoseconds
      await body()
      let end = DispatchTime.now().uptimeNanoseconds
      samples.append(Double(end - start) / Double(operations))
    }
    samples.sort()
    return Measurement(name: name, nanoseconds: samples[samples.count / 2], allocations: nil)
  }
}

/// A counter handlers bump; not thread-safe, used from one thread.
final class Counter: @unchecked Sendable {
  var value = 0
}
