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

  static func introspect(_ database: SQLiteConnection) throws -> Introspection {
    let listing = try database.rows("PRAGMA table_list")
    var strictness: [String: (strict: Bool, withoutRowID: Bool)] = [:]
    for row in listing where row[0] == "main" && row[2] == "table" {
      if let name = row[1] { strictness[name] = (row[5] == "1", row[4] == "1") }
    }
    var tables: [TableSchema] = []
    for row in try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    {
      guard let name = row[0], let sql = row[1], !internalTables.contains(name) else { continue }
      tables.append(try table(name, sql: sql, in: database, flags: strictness[name] ?? (false, false)))
    }
    var others: [(String, String)] = []
    for row in try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger') ORDER BY type DESC, name")
    {
      if let name = row[0], let sql = row[1] { others.append((name, sql)) }
    }
    return Introspection(schema: Schema(tables: tables), otherObjects: others)
  }

  private static func table(
    _ name: String, sql: String, in database: SQLiteConnection, flags: (strict: Bool, withoutRowID: Bool)
  ) throws -> TableSchema {
    let parsed = CreateTableParser(sql: sql)
    let quoted = SQLLiteral.identifier(name)
    let info = try database.rows("PRAGMA table_xinfo(\(quoted))")
    let keyColumns = info.filter { ($0[5] ?? "0") != "0" }
      .sorted { Int($0[5] ?? "0")! < Int($1[5] ?? "0")! }
      .compactMap { $0[1] }
    var foreignKeys: [String: ForeignKey] = [:]
    var compositeForeignKeys: [String] = []
    let keyRows = try database.rows("PRAGMA foreign_key_list(\(quoted))")
    for (id, rows) in Dictionary(grouping: keyRows, by: { $0[0] ?? "" }).sorted(by: { $0.key < $1.key }) {
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
    for row in try database.rows("PRAGMA index_list(\(quoted))") where row[3] == "c" {
      guard let indexName = row[1] else { continue }
      let indexColumns = try database.rows("PRAGMA index_info(\(SQLLiteral.identifier(indexName)))")
        .sorted { Int($0[0] ?? "0")! < Int($1[0] ?? "0")! }
        .map { $0[2] ?? "<expression>" }
      var condition: String?
      if row[4] == "1", let indexSQL = try database.rows(
        "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [indexName]
      ).first?[0] {
        let tokens = SQLTokenizer.tokens(indexSQL)
        if let whereIndex = tokens.lastIndex(where: { $0.isWord("WHERE") }) {
          condition = SQLTokenizer.normalized(tokens[(whereIndex + 1)...])
        }
      }
      indexes.append(
        IndexSchema(
          name: indexName, table: name, columns: indexColumns, isUnique: row[2] == "1", condition: condition))
    }
    indexes.sort { $0.name < $1.name }

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
