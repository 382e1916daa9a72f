/// A sync operation that could not be done: the database does not sync (its migrations have not
/// run), or its metadata is not what the engine wrote. Nothing was applied.
public struct SyncError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, and what to do.
  public let description: String

  package init(_ description: String) {
    self.description = description
  }
}
