#if PostgreSQL
import Foundation
import PostgresNIO
import StrataCore

extension PostgreSQLDatabase {
  /// Checks upgrades from every schema in the migrations' history on this PostgreSQL database,
  /// in a scratch schema (`strata_upgrade`) that is dropped afterwards: see
  /// `UpgradeVerification`.
  ///
  /// ```swift
  /// try await database.verifyUpgrades(UpgradeVerification(StrataMigrations.all, rowsPerTable: 1_000))
  /// ```
  ///
  /// The database's own tables are not touched; the role needs the right to create a schema.
  /// On PostgreSQL every value is compared as its text (`value::text`), which is the same for
  /// a value carried through a conversion the models asked for (an `integer` made `bigint`).
  ///
  /// - Returns: What was checked, with notes on what the migrations dropped with consent.
  /// - Throws: `UpgradeFailure` for a row, a value or a check the upgrade lost or broke.
  @discardableResult
  public func verifyUpgrades(_ verification: UpgradeVerification) async throws -> UpgradeReport {
    try await withConnection { db in
      var scratch = PostgreSQLUpgradeDatabase(db: db)
      do {
        let report = try await verification.run(on: &scratch)
        try await scratch.drop()
        return report
      } catch {
        try? await scratch.drop()
        throw error
      }
    }
  }
}

/// The schema `strata_upgrade`, made again for each starting schema, first on the connection's
/// search path.
struct PostgreSQLUpgradeDatabase: UpgradeDatabase {
  let db: PostgreSQLConnection
  static let schema = "strata_upgrade"

  func reset() async throws {
    try await db.execute(raw: "DROP SCHEMA IF EXISTS \(Self.schema) CASCADE")
    try await db.execute(raw: "CREATE SCHEMA \(Self.schema)")
    try await db.execute(raw: "SET search_path TO \(Self.schema)")
  }

  /// Drops the schema and gives the connection back its search path, before it returns to
  /// the pool.
  func drop() async throws {
    try await db.execute(raw: "RESET search_path")
    try await db.execute(raw: "DROP SCHEMA IF EXISTS \(Self.schema) CASCADE")
  }

  func migrate(_ migrations: [Migration]) async throws {
    _ = try await db.migrate(migrations, checksums: .verify, renamed: .refuse)
  }

  func tables() async throws -> [UpgradeTable] {
    let names = try await sql(
      "SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> \(migrationChecksumTable) ORDER BY 1",
      as: String.self
    ).fetchAll(db)
    var tables: [UpgradeTable] = []
    for name in names { tables.append(try await table(name)) }
    return UpgradeTableOrder.sorted(tables)
  }

  func table(_ name: String) async throws -> UpgradeTable {
    let key = try await sql(
      """
      SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = (quote_ident(\(name)))::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)
      """,
      as: String.self
    ).fetchAll(db)
    let columns = try await sql(
      """
      SELECT a.attname, t.typname, a.attnotnull, a.atthasdef OR a.attidentity <> ''
      FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = (quote_ident(\(name)))::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum
      """,
      as: (String, String, Bool, Bool).self
    ).fetchAll(db).map { column, type, notNull, hasDefault in
      UpgradeTable.Column(
        name: column, kind: Self.kind(of: type), isNullable: !notNull, hasDefault: hasDefault, primaryKeyPosition: key.firstIndex(of: column))
    }
    let pairs = try await sql(
      """
      SELECT c.conname, p.relname, a.attname, f.attname
      FROM pg_constraint c JOIN pg_class p ON p.oid = c.confrelid
      CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(col, fcol, ord)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
      JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = k.fcol
      WHERE c.conrelid = (quote_ident(\(name)))::regclass AND c.contype = 'f'
      ORDER BY c.conname, k.ord
      """,
      as: (String, String, String, String).self
    ).fetchAll(db)
    var references: [UpgradeTable.Reference] = []
    var constraint: String?
    for (name, table, column, target) in pairs {
      if name != constraint {
        references.append(UpgradeTable.Reference(columns: [], table: table, targetColumns: []))
        constraint = name
      }
      references[references.count - 1].columns.append(column)
      references[references.count - 1].targetColumns.append(target)
    }
    return UpgradeTable(name: name, columns: columns, references: references)
  }

  /// The values a column takes, from its type's name in `pg_type`.
  static func kind(of type: String) -> UpgradeTable.Kind {
    switch type {
    case "int2": .integer(bits: 16)
    case "int4": .integer(bits: 32)
    case "int8": .integer(bits: 64)
    case "float4", "float8", "numeric": .real
    case "bytea": .blob
    case "bool": .boolean
    case "uuid": .uuid
    case "timestamp", "timestamptz": .date
    case "json", "jsonb": .json
    default: .text
    }
  }

  /// In one transaction, rows a few hundred to a statement, each statement in a savepoint; a
  /// statement a constraint refuses is tried again row by row, each in a savepoint of its own,
  /// so that a row refused leaves the others.
  func insert(_ rows: [[QueryBinding?]], columns: [String], into table: String) async throws -> [Bool] {
    // PostgreSQL takes at most 65,535 parameters a statement.
    let chunk = max(1, min(500, 30_000 / max(columns.count, 1)))
    try await db.execute(raw: "BEGIN")
    do {
      var taken: [Bool] = []
      for start in stride(from: 0, to: rows.count, by: chunk) {
        let part = Array(rows[start..<min(start + chunk, rows.count)])
        if !columns.isEmpty, try await attempt(Self.insert(part, columns: columns, into: table)) {
          taken += Array(repeating: true, count: part.count)
        } else {
          for row in part { taken.append(try await attempt(UpgradeTable.insert(into: table, columns: columns, row: row))) }
        }
      }
      try await db.execute(raw: "COMMIT")
      return taken
    } catch {
      try? await db.execute(raw: "ROLLBACK")
      throw error
    }
  }

  /// Runs `statement` in a savepoint; false when a constraint refused it (class 23: CHECK,
  /// UNIQUE, NOT NULL, foreign keys), which leaves the transaction as it was.
  private func attempt(_ statement: SQLQuery<()>) async throws -> Bool {
    try await db.execute(raw: "SAVEPOINT strata_rows")
    do {
      try await statement.execute(db)
      try await db.execute(raw: "RELEASE SAVEPOINT strata_rows")
      return true
    } catch let error as PostgreSQLError where error.sqlState?.hasPrefix("23") == true {
      try await db.execute(raw: "ROLLBACK TO SAVEPOINT strata_rows")
      return false
    }
  }

  /// One `INSERT` of many rows; a nil value is the column's `DEFAULT`.
  private static func insert(_ rows: [[QueryBinding?]], columns: [String], into table: String) -> SQLQuery<()> {
    var fragment = QueryFragment(raw: "INSERT INTO ")
    fragment.append(QueryFragment(quoting: table))
    fragment.append(raw: " (")
    for (offset, column) in columns.enumerated() {
      if offset > 0 { fragment.append(raw: ", ") }
      fragment.append(QueryFragment(quoting: column))
    }
    fragment.append(raw: ") VALUES ")
    for (index, row) in rows.enumerated() {
      fragment.append(raw: index > 0 ? ", (" : "(")
      for (offset, value) in row.enumerated() {
        if offset > 0 { fragment.append(raw: ", ") }
        fragment.append(value.map { QueryFragment(binding: $0) } ?? QueryFragment(raw: "DEFAULT"))
      }
      fragment.append(raw: ")")
    }
    return "\(AnyQueryExpression<Int>(fragment))"
  }

  /// Every value as its text.
  func rows(of table: String) async throws -> UpgradeRows {
    let columns = try await sql(
      """
      SELECT a.attname FROM pg_attribute a
      WHERE a.attrelid = (quote_ident(\(table)))::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
      """,
      as: String.self
    ).fetchAll(db)
    let key = try await self.table(table).primaryKey
    let list = (key + columns).map { "\(SQLQuoting.identifier($0))::text" }.joined(separator: ", ")
    // As many columns as the table has, each read as text, cell by cell.
    let query = "SELECT \(list) FROM \(SQLQuoting.identifier(table))"
    let rows = try await db.rows(query, [], keeping: .max).map { row in
      let values = try row.map { cell in try cell.decode(String?.self).map(StoredValue.text) ?? .null }
      return (key: Array(values[..<key.count]), values: Array(values[key.count...]))
    }
    return UpgradeRows(columns: columns, keyColumns: key, rows: rows)
  }

  /// Constraints not validated: PostgreSQL checks every other one as rows are written.
  func problems() async throws -> [String] {
    try await sql(
      "SELECT conrelid::regclass::text, conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace AND NOT convalidated ORDER BY 1, 2",
      as: (String, String).self
    ).fetchAll(db).map { table, constraint in "the constraint \"\(constraint)\" of \(table) does not hold for every row (NOT VALID)" }
  }

  /// Columns, constraints, indexes, views, triggers and functions, as the catalog prints them
  /// (in one schema name, so that they compare).
  func schema() async throws -> [String: String] {
    let rows = try await sql(
      """
      SELECT 'table ' || c.relname, string_agg(quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
          || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), ''), ', ' ORDER BY a.attname)
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v') GROUP BY c.relname
      UNION ALL
      SELECT 'constraint ' || conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
      UNION ALL
      SELECT 'index ' || indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
      UNION ALL
      SELECT 'view ' || viewname, definition FROM pg_views WHERE schemaname = current_schema()
      UNION ALL
      SELECT 'trigger ' || tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
      UNION ALL
      SELECT 'function ' || proname, pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
      """,
      as: (String, String).self
    ).fetchAll(db)
    return Dictionary(rows, uniquingKeysWith: { first, _ in first })
  }
}
#endif
