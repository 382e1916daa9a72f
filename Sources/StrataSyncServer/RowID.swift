#if SyncServer
/// A synced row, by table and key (a UUID as SQLite replicas store it, text): also how the
/// server names a root record, the row a tree of rows belongs to and is shared by.
public struct RowID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The synced table.
  public var table: String
  /// The row's key.
  public var key: String

  /// The row `key` of `table`.
  public init(table: String, key: String) {
    self.table = table
    self.key = key
  }

  public var description: String { "\(table) \(key)" }
}
#endif
