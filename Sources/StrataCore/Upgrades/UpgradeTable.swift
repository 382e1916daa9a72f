/// A table of a database at some schema, as the upgrade check fills and compares it: what each
/// database's runtime reads from its catalog.
package struct UpgradeTable: Sendable, Equatable {
  /// What a column stores, as the catalog says: the values the check generates for it.
  package enum Kind: Sendable, Equatable {
    /// An integer of `bits` bits (64 on SQLite; 16, 32 or 64 on PostgreSQL).
    case integer(bits: Int)
    case real, text, blob
    /// SQLite's `ANY` (a STRICT table's column of no one type): values of every kind.
    case any
    /// PostgreSQL's `boolean`.
    case boolean
    /// PostgreSQL's `uuid`.
    case uuid
    /// PostgreSQL's `timestamp` and `timestamptz`.
    case date
    /// PostgreSQL's `json` and `jsonb`.
    case json
  }

  package struct Column: Sendable, Equatable {
    package var name: String
    package var kind: Kind
    package var isNullable: Bool
    /// Whether an insert may leave it out (a default, an identity, SQLite's rowid alias).
    package var hasDefault: Bool
    /// Whether its position in the primary key (from 0); nil when it is not in it.
    package var primaryKeyPosition: Int?

    package init(name: String, kind: Kind, isNullable: Bool, hasDefault: Bool, primaryKeyPosition: Int? = nil) {
      self.name = name
      self.kind = kind
      self.isNullable = isNullable
      self.hasDefault = hasDefault
      self.primaryKeyPosition = primaryKeyPosition
    }
  }

  /// A foreign key: `columns` hold the values of `targetColumns` of `table`.
  package struct Reference: Sendable, Equatable {
    package var columns: [String]
    package var table: String
    package var targetColumns: [String]

    package init(columns: [String], table: String, targetColumns: [String]) {
      self.columns = columns
      self.table = table
      self.targetColumns = targetColumns
    }
  }

  package var name: String
  /// The columns an insert may write (not generated ones), in the table's order.
  package var columns: [Column]
  package var references: [Reference]

  package init(name: String, columns: [Column], references: [Reference]) {
    self.name = name
    self.columns = columns
    self.references = references
  }

  /// The primary key's columns, in key order; empty for a table without one.
  package var primaryKey: [String] {
    columns.filter { $0.primaryKeyPosition != nil }.sorted { $0.primaryKeyPosition! < $1.primaryKeyPosition! }.map(\.name)
  }
}

/// A table's rows as a database holds them, read back after filling or migrating.
package struct UpgradeRows: Sendable {
  /// The columns, in the order of each row's values.
  package var columns: [String]
  /// The columns of each row's key (its primary key, or `rowid`); empty for a table whose rows
  /// have no identity.
  package var keyColumns: [String]
  /// Each row's key and values.
  package var rows: [(key: [StoredValue], values: [StoredValue])]

  package init(columns: [String], keyColumns: [String], rows: [(key: [StoredValue], values: [StoredValue])]) {
    self.columns = columns
    self.keyColumns = keyColumns
    self.rows = rows
  }
}

/// A scratch database the upgrade check makes schemas in, one after another: the part of the
/// check each database's runtime supplies.
package protocol UpgradeDatabase {
  /// Empties the database, for the next starting schema.
  mutating func reset() async throws
  /// Migrates as the app's `migrate` does.
  func migrate(_ migrations: [Migration]) async throws
  /// The tables the app's migrations made (not the migrations' records, nor a full-text index's
  /// own tables), in an order that lists a referenced table before those that reference it
  /// where references allow.
  func tables() async throws -> [UpgradeTable]
  /// Inserts each row on its own, leaving out the columns whose value is nil (they get their
  /// defaults); returns, for each, whether the database took it (false when a constraint
  /// refused it: a CHECK, a UNIQUE value, a foreign key).
  func insert(_ rows: [[QueryBinding?]], columns: [String], into table: String) async throws -> [Bool]
  /// Every row of a table, every column (generated ones too).
  func rows(of table: String) async throws -> UpgradeRows
  /// What the database's own checks find wrong (foreign keys, integrity, full-text indexes),
  /// each said in a line; empty when all is well.
  func problems() async throws -> [String]
  /// The schema, as comparable lines: the same for two databases whose tables, columns, keys,
  /// references, indexes, views and triggers are the same, whatever the text that made them.
  func schema() async throws -> [String: String]
}

extension UpgradeTable {
  /// The statement that inserts one generated row, leaving out the columns whose value is nil;
  /// every value a bound parameter.
  package static func insert(into table: String, columns: [String], row: [QueryBinding?]) -> SQLQuery<()> {
    var fragment = QueryFragment(raw: "INSERT INTO ")
    fragment.append(QueryFragment(quoting: table))
    let given = zip(columns, row).compactMap { column, value in value.map { (column, $0) } }
    if given.isEmpty {
      fragment.append(raw: " DEFAULT VALUES")
    } else {
      fragment.append(raw: " (")
      for (offset, (column, _)) in given.enumerated() {
        if offset > 0 { fragment.append(raw: ", ") }
        fragment.append(QueryFragment(quoting: column))
      }
      fragment.append(raw: ") VALUES (")
      for (offset, (_, value)) in given.enumerated() {
        if offset > 0 { fragment.append(raw: ", ") }
        fragment.append(QueryFragment(binding: value))
      }
      fragment.append(raw: ")")
    }
    return "\(AnyQueryExpression<Int>(fragment))"
  }
}

/// The order tables are filled in.
package enum UpgradeTableOrder {
  /// `tables`, each after the tables it references (a reference in a cycle, or to itself, is
  /// filled with NULL or the rows already there), otherwise by name.
  package static func sorted(_ tables: [UpgradeTable]) -> [UpgradeTable] {
    var remaining = tables.sorted { $0.name < $1.name }
    var ordered: [UpgradeTable] = []
    while !remaining.isEmpty {
      let placed = Set(ordered.map { $0.name.lowercased() })
      let next = remaining.firstIndex { table in
        table.references.allSatisfy { placed.contains($0.table.lowercased()) || $0.table.lowercased() == table.name.lowercased() }
      } ?? 0
      ordered.append(remaining.remove(at: next))
    }
    return ordered
  }
}
