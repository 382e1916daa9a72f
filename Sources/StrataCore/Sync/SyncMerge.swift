/// How writes that replicas made to one column without seeing each other combine.
///
/// Two writes are concurrent when neither replica had seen the other's when it wrote. A write
/// made on top of another (on the same device, or after syncing it) simply replaces it, whatever
/// the rule. Concurrent writes are all kept (the engine lists them until a later write replaces
/// them), and the column holds what the rule makes of them, oldest first by clock:
///
/// - ``latest``: the latest by clock (ties broken by replica id). The default.
/// - ``max``, ``min``: the largest or smallest, in SQLite's order (NULL first, then numbers, text,
///   blobs).
/// - ``union``: for a JSON array, every element any of them holds, once, in the order they
///   first appear.
/// - ``counter``: an integer that adds each replica's increments, so concurrent `+1`s make `+2`.
///   Unlike the others it keeps no list of values: no increment is ever lost.
/// - ``custom(_:)``: a Swift function of the values.
public struct SyncMerge: Sendable {
  /// The rule.
  public enum Rule: Sendable {
    /// See ``SyncMerge/latest``, ``SyncMerge/max``, ``SyncMerge/min``, ``SyncMerge/union`` and
    /// ``SyncMerge/counter``.
    case latest, max, min, union, counter
    /// A function of the concurrent values, oldest first, as SQLite stores them.
    case custom(@Sendable ([StoredValue]) throws -> StoredValue)
  }

  /// The rule.
  public var rule: Rule

  /// A merge by `rule`.
  public init(_ rule: Rule) {
    self.rule = rule
  }

  /// The latest write by clock wins.
  public static let latest = SyncMerge(.latest)
  /// The largest of the concurrent values wins.
  public static let max = SyncMerge(.max)
  /// The smallest of the concurrent values wins.
  public static let min = SyncMerge(.min)
  /// The union of concurrent JSON arrays.
  public static let union = SyncMerge(.union)
  /// The column counts: each replica's increments add up.
  public static let counter = SyncMerge(.counter)

  /// A Swift function of the concurrent values, oldest first; it should give the same result
  /// for the same values on every replica (no clock, no randomness), which is what makes every
  /// replica hold the same row.
  ///
  /// ```swift
  /// // @Merge(with: "mergeNotes")
  /// var notes = ""
  /// static func mergeNotes(_ values: [String]) -> String { values.joined(separator: "\n") }
  /// ```
  public static func custom<Value: QueryBindable & SendableMetatype>(_ function: @escaping @Sendable ([Value]) throws -> Value) -> SyncMerge
  where Value.QueryOutput == Value {
    SyncMerge(
      .custom { stored in
        let values = try stored.map { value in
          try value.withColumnValue { column in
            var arguments = FunctionArguments([column], function: "merge")
            return try arguments.decode(Value.self)
          }
        }
        return StoredValue(try function(values).queryBinding)
      })
  }

  /// Whether the rule keeps the concurrent values (all but ``counter``).
  public var keepsConcurrentValues: Bool {
    if case .counter = rule { false } else { true }
  }
}

extension StoredValue {
  /// The value a binding stores in SQLite: UUIDs and dates as the text Strata writes, booleans
  /// as integers, JSON as text.
  public init(_ binding: QueryBinding) {
    switch binding {
    case .null: self = .null
    case .integer(let value): self = .integer(value)
    case .real(let value): self = value.isNaN ? .null : .real(value)
    case .text(let text), .json(let text): self = .text(text)
    case .blob(let bytes): self = .blob(bytes)
    case .bool(let value): self = .integer(value ? 1 : 0)
    case .uuid(let uuid): self = .text(UUIDText.format(uuid))
    case .date(let date): self = .text(DateText.format(date))
    }
  }

  /// Calls `body` with the value as a decoder reads a column of it.
  public func withColumnValue<Result>(_ body: (QueryColumnValue) throws -> Result) rethrows -> Result {
    switch self {
    case .null: try body(.null)
    case .integer(let value): try body(.integer(value))
    case .real(let value): try body(.real(value))
    case .text(let text): try Array(text.utf8).withUnsafeBytes { try body(.text($0)) }
    case .blob(let bytes): try bytes.withUnsafeBytes { try body(.blob($0)) }
    }
  }
}
