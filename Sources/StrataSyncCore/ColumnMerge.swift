import Foundation
import StrataCore

/// How a column's states merge, and what value a column holds for the values it keeps: the
/// rules of `SyncMerge`, in one place for every replica.
package enum ColumnMerge {
  /// The values of both states that no value of the other replaced: a value stays unless a
  /// value on the other side was written on top of it (its version vector dominates). Oldest
  /// first, by stamp.
  package static func merge(_ local: [ColumnValue], _ incoming: [ColumnValue]) -> [ColumnValue] {
    var kept = local.filter { value in !incoming.contains { $0.versions.dominates(value.versions) } }
    for value in incoming where !local.contains(where: { $0.versions.dominates(value.versions) }) {
      if !kept.contains(where: { $0.stamp == value.stamp }) { kept.append(value) }
    }
    return kept.sorted { $0.stamp < $1.stamp }
  }

  /// Each replica's latest share of a counter.
  package static func merge(_ local: [String: CounterPart], _ incoming: [String: CounterPart]) -> [String: CounterPart] {
    local.merging(incoming) { mine, theirs in
      (theirs.clock, theirs.total) > (mine.clock, mine.total) ? theirs : mine
    }
  }

  /// The value a column holds for `values` (oldest first) under `rule`.
  package static func resolve(_ values: [ColumnValue], rule: SyncMerge.Rule) throws -> StoredValue {
    guard let latest = values.last else { return .null }
    guard values.count > 1 else { return latest.value }
    switch rule {
    case .latest, .counter: return latest.value
    case .max: return values.map(\.value).max(by: { order($0, $1) < 0 }) ?? .null
    case .min: return values.map(\.value).min(by: { order($0, $1) < 0 }) ?? .null
    case .union: return union(values.map(\.value))
    case .custom(let function): return try function(values.map(\.value))
    }
  }

  /// A counter's value: the sum of every replica's share.
  package static func total(_ parts: [String: CounterPart]) -> StoredValue {
    .integer(parts.values.reduce(0) { $0 &+ $1.total })
  }

  /// SQLite's order of values in the BINARY collation: NULL, numbers by value, text by bytes,
  /// blobs by bytes. Negative, zero or positive.
  package static func order(_ a: StoredValue, _ b: StoredValue) -> Int {
    func rank(_ value: StoredValue) -> Int {
      switch value {
      case .null: 0
      case .integer, .real: 1
      case .text: 2
      case .blob: 3
      }
    }
    if rank(a) != rank(b) { return rank(a) - rank(b) }
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return x < y ? -1 : x > y ? 1 : 0
    case (.integer(let x), .real(let y)): return compare(Double(x), y, tie: 0)
    case (.real(let x), .integer(let y)): return compare(x, Double(y), tie: 0)
    case (.real(let x), .real(let y)): return compare(x, y, tie: 0)
    case (.text(let x), .text(let y)): return compareBytes(Array(x.utf8), Array(y.utf8))
    case (.blob(let x), .blob(let y)): return compareBytes(x, y)
    default: return 0
    }
  }

  private static func compare(_ x: Double, _ y: Double, tie: Int) -> Int {
    x < y ? -1 : x > y ? 1 : tie
  }

  private static func compareBytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
    for (a, b) in zip(x, y) where a != b { return a < b ? -1 : 1 }
    return x.count - y.count
  }

  /// The elements of JSON arrays, each once, in the order they first appear; a value that is
  /// not an array adds nothing. Elements are compared as their JSON with sorted keys.
  package static func union(_ values: [StoredValue]) -> StoredValue {
    var seen: Set<String> = []
    var elements: [String] = []
    for value in values {
      guard case .text(let text) = value,
        let array = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? [Any]
      else { continue }
      for element in array {
        guard let data = try? JSONSerialization.data(withJSONObject: [element], options: [.sortedKeys]),
          let wrapped = String(data: data, encoding: .utf8)
        else { continue }
        let json = String(wrapped.dropFirst().dropLast())
        if seen.insert(json).inserted { elements.append(json) }
      }
    }
    return .text("[" + elements.joined(separator: ",") + "]")
  }
}
