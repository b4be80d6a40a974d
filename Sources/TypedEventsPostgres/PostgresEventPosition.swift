#if PostgreSQL
  /// Where an event sits in a ``PostgresEventStore``: the id of the transaction that wrote it,
  /// then its place among that transaction's rows.
  ///
  /// The store's one order is this pair's order: transaction-id order, not commit order. Reads
  /// return only events whose transaction is older than every transaction still running, so no
  /// event can later appear before a position a reader has gone past.
  public struct PostgresEventPosition: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The writing transaction's id (`xid8`, which never wraps around).
    public var transaction: UInt64
    /// The row's `position` column, increasing within a transaction.
    public var sequence: Int64

    /// A position from its parts.
    public init(transaction: UInt64, sequence: Int64) {
      self.transaction = transaction
      self.sequence = sequence
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
      (lhs.transaction, lhs.sequence) < (rhs.transaction, rhs.sequence)
    }

    public var description: String { "\(transaction)/\(sequence)" }
  }
#endif
