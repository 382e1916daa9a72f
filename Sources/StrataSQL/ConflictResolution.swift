/// What SQLite does when a row violates a constraint: the algorithm of `INSERT OR …` and of a
/// constraint's `ON CONFLICT` clause.
public enum ConflictResolution: String, Hashable, Sendable, CaseIterable {
  case abort = "ABORT"
  case fail = "FAIL"
  case ignore = "IGNORE"
  case replace = "REPLACE"
  case rollback = "ROLLBACK"
}
