import Foundation

/// The SQL text of a table type that every statement on it repeats, rendered once per type:
/// the table as written after `FROM`, the qualifier of its columns, each qualified column, and
/// the list of all its columns.
///
/// Rendering these for every statement was most of the cost of a small statement. The cache
/// holds one entry per table type (aliases and optional tables included), so it stays as small
/// as the program's set of tables; a lock makes it safe to use from any thread. A class, so that
/// handing it around retains one object rather than each of its strings.
///
/// Public for generated code alone, which keeps each table's in a static property
/// (``Table/_tableSQL``): nothing else of it is.
public final class TableSQL: Hashable, Sendable {
  /// The table's quoted name, with its database's when that is an attached one:
  /// `"cache"."entries"`.
  @usableFromInline let name: String
  @usableFromInline let from: String
  let qualifier: String
  @usableFromInline let allColumns: String
  let columns: [ColumnKey: String]
  /// `"table"."key" = ?` for a table with a primary key: a lookup by a bound key (`find(id)`)
  /// is the most common condition there is.
  @usableFromInline let keyEqualsParameter: String?
  /// ` WHERE "table"."key" = ?`, and `SELECT <all columns> FROM <table>` and `DELETE FROM
  /// <table>` followed by it, whole: statements whose only clause is that condition use them as
  /// they are, without building their text.
  @usableFromInline let whereKey: String?
  @usableFromInline let selectByKey: String?
  @usableFromInline let deleteByKey: String?
  /// `"column" = ` for each column, the start of its assignment in an `UPDATE`'s `SET`.
  @usableFromInline let columnAssignments: [ColumnKey: String]
  /// `UPDATE <table> SET `.
  @usableFromInline let updateSet: String
  /// `DELETE FROM <table>`.
  @usableFromInline let deleteFrom: String
  /// `SELECT <all columns> FROM <table>`.
  @usableFromInline let selectAll: String
  /// `INSERT INTO "table" ("a", "b", …)`, and `(?, ?, …)` for one row of every column.
  let insertInto: String
  let valuesRow: String
  /// `INSERT INTO "table" (…) VALUES (?, …)`: one row of every column, the insert of a draft.
  let insertOneRow: String

  private static let lock = NSLock()
  /// Guarded by `lock`, so the runtime's exclusivity check of each access would only repeat it
  /// (with the hashing below, a third of a lookup's instructions; a find looks up twice).
  @exclusivity(unchecked) nonisolated(unsafe) private static var cache: [TypeKey: TableSQL] = [:]

  /// A type's identity as a dictionary key, hashed by mixing its metadata's address rather
  /// than running SipHash over it: the keys are the program's own table types, which no input
  /// chooses, so the hash needs no protection against collisions made on purpose.
  private struct TypeKey: Hashable {
    let type: ObjectIdentifier

    func _rawHashValue(seed: Int) -> Int {
      let address = UInt64(UInt(bitPattern: type) ^ UInt(bitPattern: seed))
      let mixed = address &* 0x9E37_79B9_7F4A_7C15
      return Int(truncatingIfNeeded: mixed ^ (mixed >> 32))
    }
  }

  /// The table's SQL text, rendered on first use and shared from then on.
  public static func of<T: Table>(_ table: T.Type) -> TableSQL {
    let key = TypeKey(type: ObjectIdentifier(table))
    if let cached = lock.withLock({ cache[key] }) { return cached }
    let rendered = TableSQL(table)
    lock.withLock { cache[key] = rendered }
    return rendered
  }

  private init<T: Table>(_ table: T.Type) {
    let quoted = QueryFragment.quote(T.tableName)
    // Columns are qualified by the table's name alone, which SQLite resolves in any database.
    name = T.schemaName.map { QueryFragment.quote($0) + "." + quoted } ?? quoted
    if let alias = T.tableAlias {
      qualifier = QueryFragment.quote(alias)
      from = name + " AS " + qualifier
    } else {
      qualifier = quoted
      from = name
    }
    var columns: [ColumnKey: String] = [:]
    var assignments: [ColumnKey: String] = [:]
    var list: [String] = []
    for column in T.TableColumns.columnNames {
      let qualified = qualifier + "." + QueryFragment.quote(column)
      columns[ColumnKey(column)] = qualified
      assignments[ColumnKey(column)] = Assignment.target(column)
      list.append(qualified)
    }
    self.columns = columns
    columnAssignments = assignments
    updateSet = "UPDATE " + from + " SET "
    let deleteFrom = "DELETE FROM " + from
    self.deleteFrom = deleteFrom
    allColumns = list.joined(separator: ", ")
    let selectAll = "SELECT " + allColumns + " FROM " + from
    self.selectAll = selectAll
    let keyCondition = (T.self as? any PrimaryKeyedTable.Type).flatMap { keyed in
      columns[ColumnKey(Self.keyName(keyed))].map { $0 + " = ?" }
    }
    keyEqualsParameter = keyCondition
    let whereKey = keyCondition.map { " WHERE " + $0 }
    self.whereKey = whereKey
    selectByKey = whereKey.map { selectAll + $0 }
    deleteByKey = whereKey.map { deleteFrom + $0 }
    insertInto = "INSERT INTO " + name + " ("
      + T.TableColumns.writableColumnNames.map(QueryFragment.quote).joined(separator: ", ") + ")"
    valuesRow = "(" + repeatElement("?", count: T.TableColumns.writableColumnNames.count).joined(separator: ", ") + ")"
    insertOneRow = insertInto + " VALUES " + valuesRow
  }

  private static func keyName<T: PrimaryKeyedTable>(_ table: T.Type) -> String {
    T.columns.primaryKey.name
  }

  public static func == (lhs: TableSQL, rhs: TableSQL) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// `"table"."column"`.
  @usableFromInline func column(_ name: String) -> String {
    columns[ColumnKey(name)] ?? qualifier + "." + QueryFragment.quote(name)
  }

  /// A column's name as a dictionary key, hashed with FNV-1a over its bytes rather than SipHash:
  /// every column reference in a statement looks its text up by name, and the names are the
  /// program's own columns, which no input chooses (SipHash was half of a lookup's cost).
  @usableFromInline
  struct ColumnKey: Hashable, Sendable {
    @usableFromInline let name: String

    @usableFromInline init(_ name: String) {
      self.name = name
    }

    @usableFromInline func _rawHashValue(seed: Int) -> Int {
      var name = name
      // Over the contiguous bytes: the UTF-8 view's iterator cost ten times as much per byte.
      return name.withUTF8 { bytes in
        var hash = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt(bitPattern: seed))
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
      }
    }
  }
}
