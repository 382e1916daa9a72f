/// How a synced table's column combines concurrent writes, as `// @Merge` spells it.
public enum SyncMergeModel: Hashable, Sendable {
  case latest, max, min, union, counter
  /// A static function of the model: `@Merge(with: "mergeNotes")`.
  case custom(function: String)

  /// How `@Merge(.name)` spells the rule (a function has no member).
  var member: String {
    switch self {
    case .latest: "latest"
    case .max: "max"
    case .min: "min"
    case .union: "union"
    case .counter: "counter"
    case .custom(let function): function
    }
  }

  /// The rule `.name` spells, if any.
  init?(member: String) {
    switch member {
    case "latest": self = .latest
    case "max": self = .max
    case "min": self = .min
    case "union": self = .union
    case "counter": self = .counter
    default: return nil
    }
  }
}

/// What a synced table (`// @Synced`) declares beside its columns: how each combines concurrent
/// writes, by column name, for those that do not keep the latest.
public struct SyncModel: Hashable, Sendable {
  public var merges: [String: SyncMergeModel]

  public init(merges: [String: SyncMergeModel] = [:]) {
    self.merges = merges
  }
}
