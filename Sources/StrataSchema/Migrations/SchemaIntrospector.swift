/// Reads a SQLite database's schema into the schema model, with SQLite's pragmas for what they
/// report and the `CREATE TABLE` text for the rest.
enum SchemaIntrospector {
  /// Objects of a schema that are not tables or indexes: views and triggers, as SQL.
  struct Introspection {
    var schema: Schema
    var otherObjects: [(name: String, sql: String)]
  }

  /// Tables Strata and GRDB keep for themselves.
  static let internalTables: Set<String> = ["grdb_migrations", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4"]

  /// Reads every table with a handful of queries over SQLite's table-valued pragma functions,
  /// rather than several pragmas per table.
  static func introspect(_ database: SQLiteConnection) throws -> Introspection {
    var flags: [String: (strict: Bool, withoutRowID: Bool)] = [:]
    for row in try database.rows("SELECT name, wr, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table'") {
      if let name = row[0] { flags[name] = (row[2] == "1", row[1] == "1") }
    }
    let tables = try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { row -> (String, String)? in
      guard let name = row[0], let sql = row[1], !internalTables.contains(name) else { return nil }
      return (name, sql)
    }
    let columns = Dictionary(
      grouping: try database.rows(
        """
        SELECT m.name, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden
        FROM sqlite_schema AS m, pragma_table_xinfo(m.name) AS p
        WHERE m.type = 'table' ORDER BY m.name, p.cid
        """), by: { $0[0] ?? "" })
    let foreignKeys = Dictionary(
      grouping: try database.rows(
        """
        SELECT m.name, p.id, p."table", p."from", p."to", p.on_update, p.on_delete
        FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS p
        WHERE m.type = 'table' ORDER BY m.name, p.id, p.seq
        """), by: { $0[0] ?? "" })
    let indexes = Dictionary(
      grouping: try database.rows(
        """
        SELECT m.name, l.name, l."unique", l.partial, i.name, s.sql
        FROM sqlite_schema AS m, pragma_index_list(m.name) AS l, pragma_index_info(l.name) AS i
        LEFT JOIN sqlite_schema AS s ON s.type = 'index' AND s.name = l.name
        WHERE m.type = 'table' AND l.origin = 'c' ORDER BY m.name, l.name, i.seqno
        """), by: { $0[0] ?? "" })

    let schema = Schema(
      tables: tables.map { name, sql in
        table(
          name, sql: sql, columns: columns[name] ?? [], foreignKeys: foreignKeys[name] ?? [],
          indexes: indexes[name] ?? [], flags: flags[name] ?? (false, false))
      })
    var others: [(String, String)] = []
    for row in try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger') ORDER BY type DESC, name")
    {
      if let name = row[0], let sql = row[1] { others.append((name, sql)) }
    }
    return Introspection(schema: schema, otherObjects: others)
  }

  /// One table from the rows of the pragma queries, each row prefixed with the table name.
  private static func table(
    _ name: String, sql: String, columns info: [[String?]], foreignKeys keyRows: [[String?]],
    indexes indexRows: [[String?]], flags: (strict: Bool, withoutRowID: Bool)
  ) -> TableSchema {
    let parsed = CreateTableParser(sql: sql)
    let keyColumns = info.filter { ($0[5] ?? "0") != "0" }
      .sorted { Int($0[5] ?? "0")! < Int($1[5] ?? "0")! }
      .compactMap { $0[1] }
    var foreignKeys: [String: ForeignKey] = [:]
    var compositeForeignKeys: [String] = []
    for (id, rows) in Dictionary(grouping: keyRows, by: { $0[1] ?? "" }).sorted(by: { $0.key < $1.key }) {
      if rows.count == 1, let row = rows.first, let from = row[3], let target = row[2] {
        foreignKeys[from] = ForeignKey(
          table: target, column: row[4] ?? "", onDelete: action(row[6]), onUpdate: action(row[5]))
      } else {
        compositeForeignKeys.append("FOREIGN KEY #\(id)")
      }
    }

    var columns: [ColumnSchema] = []
    for row in info where (row[6] ?? "0") == "0" {
      guard let columnName = row[1] else { continue }
      let details = parsed.columns[columnName] ?? .init()
      var column = ColumnSchema(name: columnName, type: (row[2] ?? "").uppercased())
      column.isNotNull = row[3] == "1"
      column.notNullOnConflict = details.notNullOnConflict
      column.defaultValue = row[4].map(normalizedDefault)
      if keyColumns == [columnName] {
        column.primaryKey = .init(isAutoincrement: details.isAutoincrement, onConflict: details.primaryKeyOnConflict)
      }
      column.isUnique = details.isUnique
      column.collation = details.collation
      column.references = foreignKeys[columnName]
      column.otherConstraints = details.otherConstraints
      columns.append(column)
    }

    var indexes: [IndexSchema] = []
    for (indexName, rows) in Dictionary(grouping: indexRows, by: { $0[1] ?? "" }).sorted(by: { $0.key < $1.key }) {
      guard let first = rows.first else { continue }
      var condition: String?
      if first[3] == "1", let indexSQL = first[5] {
        let tokens = SQLTokenizer.tokens(indexSQL)
        if let whereIndex = tokens.lastIndex(where: { $0.isWord("WHERE") }) {
          condition = SQLTokenizer.normalized(tokens[(whereIndex + 1)...])
        }
      }
      indexes.append(
        IndexSchema(
          name: indexName, table: name, columns: rows.map { $0[4] ?? "<expression>" }, isUnique: first[2] == "1",
          condition: condition))
    }

    return TableSchema(
      name: name, columns: columns, compositePrimaryKey: keyColumns.count > 1 ? keyColumns : [],
      isStrict: flags.strict, isWithoutRowID: flags.withoutRowID, indexes: indexes,
      otherConstraints: parsed.tableConstraints + compositeForeignKeys)
  }

  /// SQLite's default action, `NO ACTION`, is the same as none.
  private static func action(_ text: String?) -> String? {
    guard let text, text != "NO ACTION" else { return nil }
    return text
  }

  /// A default as it must be written in DDL: SQLite reports `(uuid())` as `uuid()`.
  static func normalizedDefault(_ text: String) -> String {
    let upper = text.uppercased()
    if ["NULL", "TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(upper) {
      return upper
    }
    if text.hasPrefix("'") || upper.hasPrefix("X'") { return text }
    if Double(text) != nil || (text.hasPrefix("0x") && Int64(text.dropFirst(2), radix: 16) != nil) {
      return text
    }
    return "(" + text + ")"
  }
}
