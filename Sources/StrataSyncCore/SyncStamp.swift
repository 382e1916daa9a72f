/// When and where a write was made: the writing replica's hybrid logical clock and its id.
///
/// Stamps order writes: by clock, then by replica id when two replicas' clocks are equal. A
/// replica's clock only grows, and passes every clock it has seen, so a write made after seeing
/// another has the larger stamp.
public struct SyncStamp: Hashable, Comparable, Sendable {
  /// Milliseconds since 1970 shifted left by 16 bits, plus a counter for events within one
  /// millisecond (`SyncTables.counterBits`).
  public var clock: Int64
  /// The writing replica's id: 32 lowercase hexadecimal digits.
  public var replica: String

  /// The stamp of a write `replica` made at `clock`.
  public init(clock: Int64, replica: String) {
    self.clock = clock
    self.replica = replica
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.clock, lhs.replica) < (rhs.clock, rhs.replica)
  }
}

/// The writes a value was made on top of: per replica, the latest clock of that replica's writes
/// to the column that the writer had seen (its own write included).
///
/// A write whose vector covers another's replaced it; when neither covers the other, the two
/// were made concurrently, and the column's merge rule combines them.
public struct VersionVector: Hashable, Sendable {
  /// Per replica id, the clock of its latest write covered.
  public private(set) var clocks: [String: Int64]

  /// A vector of `clocks`.
  public init(_ clocks: [String: Int64] = [:]) {
    self.clocks = clocks
  }

  /// The vector of a write that replaced nothing recorded: `replica` at `clock`.
  public init(_ stamp: SyncStamp) {
    clocks = [stamp.replica: stamp.clock]
  }

  /// The writes any of `values` covers.
  public init(joining values: [ColumnValue]) {
    self = values.reduce(VersionVector()) { $0.joined($1.versions) }
  }

  /// Whether every write `other` covers is covered here too, and this covers more.
  public func dominates(_ other: VersionVector) -> Bool {
    guard clocks != other.clocks else { return false }
    return other.clocks.allSatisfy { replica, clock in (clocks[replica] ?? .min) >= clock }
  }

  /// The writes either covers.
  public func joined(_ other: VersionVector) -> VersionVector {
    VersionVector(clocks.merging(other.clocks, uniquingKeysWith: Swift.max))
  }
}
