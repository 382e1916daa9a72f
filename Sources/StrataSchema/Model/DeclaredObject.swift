import StrataSQL

/// A schema object a model declares, beside tables and indexes: a full-text index, a view or a
/// trigger. The planner creates it, recreates it when its declaration changes or a table it
/// reads is rebuilt, and drops it when no model declares it any more.
public enum DeclaredObject: Hashable, Sendable {
  case fullTextIndex(FullTextIndex)
  case view(ViewDeclaration)
  case trigger(TriggerDeclaration)
  /// The triggers that record the writes to a synced table (`// @Synced`).
  case syncCapture(SyncCapture)

  /// The object's name: the virtual table's, the view's or the trigger's (a synced table's
  /// insert trigger).
  public var name: String {
    switch self {
    case .fullTextIndex(let index): index.name
    case .view(let view): view.name
    case .trigger(let trigger): trigger.name
    case .syncCapture(let capture): capture.triggerNames[0]
    }
  }

  /// The kind of object, in a message: `full-text index`, `view`, `trigger`.
  public var kindDescription: String {
    switch self {
    case .fullTextIndex: "full-text index"
    case .view: "view"
    case .trigger: "trigger"
    case .syncCapture: "sync capture"
    }
  }

  /// The names of the objects the database keeps for the declaration: a full-text index with
  /// external content comes with the triggers that keep it in sync. (Its table of replaced rows
  /// goes with the virtual table, as FTS5's shadow tables do.)
  public var objectNames: [String] {
    switch self {
    case .fullTextIndex(let index): [index.name] + (index.content == nil ? [] : FullTextIndex.SyncTrigger.allCases.map(index.triggerName))
    case .view(let view): [view.name]
    case .trigger(let trigger): [trigger.name]
    case .syncCapture(let capture): capture.triggerNames
    }
  }

  /// Whether dropping the object deletes values nothing else keeps: the rows of a full-text
  /// table that has no content table.
  public var holdsData: Bool {
    if case .fullTextIndex(let index) = self { index.content == nil } else { false }
  }
}

/// An FTS5 virtual table over some text columns (`struct ItemText: FTS5`).
///
/// With a content table, the index stores no text of its own (`content=`): it indexes the content
/// table's columns of the same names, and triggers on the content table keep it in sync. Without
/// one, the index is a table of its own that the app writes.
public struct FullTextIndex: Hashable, Sendable {
  /// The virtual table's name.
  public var name: String
  /// The columns, in order: those FTS5 indexes, and those it only stores (``unindexed``).
  public var columns: [String]
  /// The columns FTS5 stores as given without indexing them (`UNINDEXED`): a key, a number, a
  /// date to show beside a match.
  public var unindexed: Set<String> = []
  /// The `tokenize` option as written (`porter unicode61`, `trigram`), or nil for FTS5's default.
  public var tokenizer: String?
  /// The `prefix` option's lengths (`[2, 3]`), for fast prefix queries.
  public var prefixes: [Int]
  /// The table whose rows the index covers, or nil for an index that holds its own text.
  public var content: ContentTable?

  /// The table an external-content index covers.
  public struct ContentTable: Hashable, Sendable {
    /// The content table's name.
    public var table: String
    /// The column that holds its rowid: its integer primary key, or `rowid`.
    public var rowidColumn: String
    /// The sets of columns a row must share with another for a `REPLACE` to delete the other: the
    /// table's key when it is not the rowid, its `UNIQUE` columns and constraints, its unique
    /// indexes. SQLite deletes such a row without firing a delete trigger (unless recursive
    /// triggers are on), so the triggers find those rows themselves.
    public var replacingKeys: [[String]]

    public init(table: String, rowidColumn: String, replacingKeys: [[String]] = []) {
      self.table = table
      self.rowidColumn = rowidColumn
      self.replacingKeys = replacingKeys
    }
  }

  /// The triggers on a content table that keep its index in sync.
  ///
  /// A `REPLACE` (`INSERT OR REPLACE`, `UPDATE OR REPLACE`, or a constraint declared `ON CONFLICT
  /// REPLACE`) deletes the rows that hold the new row's key or unique values without firing
  /// delete triggers. So before each insert or update, the `before` trigger copies those rows'
  /// indexed values into the index's table of replaced rows (``FullTextIndex/replacedRowsTable``);
  /// after it, the `after` trigger takes the ones that are gone out of the index, with their old
  /// values, as FTS5's `delete` command requires, and empties the table. A conflict resolved
  /// otherwise (`IGNORE`, an upsert's update, an error) deletes nothing, and the copies are
  /// discarded unused.
  public enum SyncTrigger: String, CaseIterable, Sendable {
    case beforeInsert = "before_insert", afterInsert = "after_insert"
    case beforeUpdate = "before_update", afterUpdate = "after_update"
    case afterDelete = "after_delete"
  }

  public init(
    name: String, columns: [String], unindexed: Set<String> = [], tokenizer: String? = nil, prefixes: [Int] = [],
    content: ContentTable? = nil
  ) {
    self.name = name
    self.columns = columns
    self.unindexed = unindexed
    self.tokenizer = tokenizer
    self.prefixes = prefixes
    self.content = content
  }

  /// The name of the trigger that keeps the index in sync on the content table.
  public func triggerName(_ trigger: SyncTrigger) -> String {
    "\(name)_\(trigger.rawValue)"
  }

  /// The table where the triggers keep the indexed values of rows a `REPLACE` deletes, for the
  /// time of one insert or update (see ``SyncTrigger``): it goes with the virtual table, as
  /// FTS5's shadow tables do, and is empty between statements.
  public var replacedRowsTable: String {
    Self.replacedRowsTable(of: name)
  }

  /// The table of replaced rows of the full-text index called `name`.
  public static func replacedRowsTable(of name: String) -> String {
    FullTextIndexTables.replacedRows(of: name)
  }
}

/// A view (`// @View(raw: "SELECT …")` above a model): its columns are the model's, in order.
public struct ViewDeclaration: Hashable, Sendable {
  public var name: String
  /// The column names the view declares, which the select must match in number.
  public var columns: [String]
  /// The `SELECT` statement, as written in the model.
  public var select: String

  public init(name: String, columns: [String], select: String) {
    self.name = name
    self.columns = columns
    self.select = select
  }
}

/// A trigger a model declares (`// @Trigger("name", raw: "AFTER UPDATE ON … BEGIN … END")`).
public struct TriggerDeclaration: Hashable, Sendable {
  public var name: String
  /// Everything after `CREATE TRIGGER "name"`, as written in the model.
  public var definition: String

  public init(name: String, definition: String) {
    self.name = name
    self.definition = definition
  }
}

/// What records the writes to a synced table: triggers that, for every insert, update and delete
/// the app makes (through Strata, GRDB, raw SQL or another process), stamp the row or column with
/// the replica's hybrid logical clock in sync's tables (`SyncTables`). The engine applies other
/// replicas' writes with the triggers silenced, so they are not recorded twice.
public struct SyncCapture: Hashable, Sendable {
  /// The synced table.
  public var table: String
  /// Its UUID key column.
  public var key: String
  /// The other columns that sync, in the table's order.
  public var columns: [String]
  /// Those that count (`// @Merge(.counter)`): each replica's increments are recorded, not only
  /// the value.
  public var counters: Set<String>

  public init(table: String, key: String, columns: [String], counters: Set<String> = []) {
    self.table = table
    self.key = key
    self.columns = columns
    self.counters = counters
  }

  /// The triggers, in the order they are created: insert, delete, key, then one per column.
  public var triggerNames: [String] {
    ["insert", "delete", "key"].map { SyncTables.trigger(table, $0) }
      + columns.map { SyncTables.trigger(table, "update_" + $0) }
  }
}
