import Foundation

/// The grammar's record of the objects and arrays open around a scan, and of each open
/// object's keys, which ``value(depth:)`` keeps to refuse a repeated key in time
/// linear in the keys.
extension JSONScanner {
  /// A key: its bytes as written (no escapes), or decoded into ``OpenContainers/decoded``.
  enum Key {
    case written(Range<Int>)
    case decoded(Range<Int>)
  }

  /// Up to this many keys, a new one is compared with each: cheaper than hashing them.
  static let keysComparedOneByOne = 12

  /// The objects and arrays open around the scan, and the keys of the open objects.
  struct OpenContainers {
    struct Frame {
      let isObject: Bool
      /// Where this object's keys begin in ``OpenContainers/keys``.
      let firstKey: Int
      var members = 1
      /// Whether its keys are in a table, the last of ``OpenContainers/tables``: once the object
      /// has more keys than are worth comparing one by one.
      var hasTable = false
    }

    /// An open-addressing hash table of one object's keys: each slot holds the index in
    /// ``OpenContainers/keys`` of a key, plus one (0 is empty), and each key's hash is kept, so
    /// that growing rehashes nothing. A `Dictionary` of hashes hashed each one again, and
    /// rehashed every key each time it grew: that was most of reading an object of 65,000 keys.
    struct KeyTable {
      private var slots: [Int]
      /// The hash of each key of the object, from its first.
      private var hashes: [Int] = []
      private let firstKey: Int

      init(firstKey: Int, capacity: Int) {
        self.firstKey = firstKey
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        hashes.reserveCapacity(capacity)
      }

      /// The index of a key already in the table that has `hash` and is the same as the key
      /// `same` is asked about; else nil, and the key at `position` is added.
      mutating func insert(position: Int, hash: Int, same: (Int) -> Bool) -> Int? {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
          let earlier = slots[slot] - 1
          if hashes[earlier - firstKey] == hash, same(earlier) { return earlier }
          slot = (slot + 1) & mask
        }
        slots[slot] = position + 1
        hashes.append(hash)
        if hashes.count * 2 > slots.count { grow() }
        return nil
      }

      private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (offset, hash) in hashes.enumerated() {
          var slot = hash & mask
          while slots[slot] != 0 { slot = (slot + 1) & mask }
          slots[slot] = firstKey + offset + 1
        }
      }
    }

    /// The frames hold no reference, so that reading one copies nothing: each key of a large
    /// object read its frame twice, and a table in the frame was retained and released each time
    /// (a tenth of reading an object of 65,000 keys).
    var frames: [Frame] = []
    /// The key tables of the open objects that have one, innermost last.
    var tables: [KeyTable] = []
    /// The keys of every open object, innermost last: an inner object's keys are dropped when it
    /// closes, before its parent's next key comes.
    var keys: [Key] = []
    /// The UTF-8 of keys written with escapes.
    var decoded: [UInt8] = []

    /// Forgets every container, keeping the arrays' storage.
    mutating func empty() {
      // Each only when it holds something: a value's scan closes every container it opens, so
      // most are empty, and a call to empty one cost more than the check.
      if !frames.isEmpty { frames.removeAll(keepingCapacity: true) }
      if !keys.isEmpty { keys.removeAll(keepingCapacity: true) }
      if !decoded.isEmpty { decoded.removeAll(keepingCapacity: true) }
      if !tables.isEmpty { tables.removeAll(keepingCapacity: true) }
    }

    mutating func close() {
      let frame = frames.removeLast()
      if frame.isObject { keys.removeSubrange(frame.firstKey...) }
      if frame.hasTable { tables.removeLast() }
    }

    /// Adds `key` to the innermost object; true when the object has it already.
    mutating func insertIsRepeat(_ key: Key, bytes: UnsafeRawBufferPointer) -> Bool {
      let last = frames.count - 1
      let first = frames[last].firstKey
      let count = keys.count - first
      if count < JSONScanner.keysComparedOneByOne {
        for earlier in keys[first...] where same(earlier, key, bytes) { return true }
        keys.append(key)
        return false
      }
      var table: KeyTable
      if frames[last].hasTable {
        // Taken out and put back (moved, not copied), so that the table is not copied on write.
        table = tables.removeLast()
      } else {
        // The keys so far are distinct: each was compared with those before it.
        table = KeyTable(firstKey: first, capacity: count * 4)
        for position in first..<keys.count {
          _ = table.insert(position: position, hash: hash(keys[position], bytes)) { _ in false }
        }
        frames[last].hasTable = true
      }
      defer { tables.append(table) }
      let repeated = table.insert(position: keys.count, hash: hash(key, bytes)) { same(self.keys[$0], key, bytes) }
      guard repeated == nil else { return true }
      keys.append(key)
      return false
    }

    func withBytes<Result>(
      of key: Key, in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
      switch key {
      case .written(let range): body(UnsafeRawBufferPointer(rebasing: bytes[range]))
      case .decoded(let range): decoded.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
      }
    }

    private func same(_ one: Key, _ other: Key, _ bytes: UnsafeRawBufferPointer) -> Bool {
      withBytes(of: one, in: bytes) { first in withBytes(of: other, in: bytes) { first.hasSameBytes(as: $0) } }
    }

    private func hash(_ key: Key, _ bytes: UnsafeRawBufferPointer) -> Int {
      withBytes(of: key, in: bytes) { raw in
        var hasher = Hasher()
        hasher.combine(bytes: raw)
        return hasher.finalize()
      }
    }
  }
}
