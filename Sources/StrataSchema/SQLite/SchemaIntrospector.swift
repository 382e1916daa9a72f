import StrataSQL

/// Reads a SQLite database's schema into the schema model, with SQLite's pragmas for what they
/// report and the `CREATE TABLE` text for the rest.
enum SchemaIntrospector {
  /// A schema as the introspector reads it.
  struct Introspection {
    /// The tables: not SQLite's or GRDB's own, not virtual tables or their shadow tables, and
    /// without their generated columns, which take no values (for the importer, the snapshot and
    /// renames).
    var schema: Schema
    /// The same tables with their generated columns, in the table's order: what the planner
    /// compares with the models.
    var schemaWithGeneratedColumns: Schema
    /// The user's objects the models cannot express: virtual tables, views and triggers.
    var objects: [SchemaObject]
    /// The SQL of each index made with `CREATE INDEX`, by name.
    var indexSQL: [String: String]
    /// Virtual tables and their shadow tables, which are the user's.
    var virtualTables: Set<String>
    /// The shadow tables alone, which their virtual table makes (with a full-text index's table
    /// of replaced rows, which its declaration makes beside it).
    var shadowTables: Set<String>
    /// Each table's generated columns, which `schema` leaves out, by table name.
    var generatedColumns: [String: [String]]
    /// The names a database gave constraints the schema model holds unnamed, by
    /// ``constraintKey(table:_:)``, for a dialect that drops constraints by name (PostgreSQL).
    var constraintNames: [String: String] = [:]

    /// The key of a table's constraint in ``constraintNames``.
    static func constraintKey(table: String, _ constraint: TableConstraint) -> String {
      SQLName.folded(table) + "\u{0}" + SQLRenderer.constraint(constraint)
    }

    /// Whether dropping `object` deletes values: a virtual table with a `_content` shadow table
    /// keeps its own text (a full-text table without a content table).
    func holdsData(_ object: SchemaObject) -> Bool {
      object.kind == .virtualTable && shadowTables.contains(object.name + "_content")
    }

    /// The views and triggers, which can depend on tables and columns.
    var dependents: [SchemaObject] {
      objects.filter { $0.kind != .virtualTable }
    }
  }

  /// Tables Strata and GRDB keep for themselves, sync's among them.
  static let internalTables: Set<String> = Set(["grdb_migrations", "strata_migrations", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4"])
    .union(SyncTables.all)

  /// Reads every table with a handful of queries over SQLite's table-valued pragma functions,
  /// rather than several pragmas per table.
  static func introspect(_ database: SQLiteConnection) throws -> Introspection {
    var flags: [String: (strict: Bool, withoutRowID: Bool)] = [:]
    var virtualTables: Set<String> = []
    var shadowTables: Set<String> = []
    for row in try database.rows("SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'") {
      guard let name = row["name"] else { continue }
      switch row["type"] {
      case "table": flags[name] = (row.flag("strict"), row.flag("wr"))
      case "virtual": virtualTables.insert(name)
      case "shadow":
        virtualTables.insert(name)
        shadowTables.insert(name)
      default: break
      }
    }
    // A full-text index's table of replaced rows belongs to it as its shadow tables do.
    for index in virtualTables where !shadowTables.contains(index) {
      let name = FullTextIndex.replacedRowsTable(of: index)
      if flags[name] != nil {
        flags[name] = nil
        virtualTables.insert(name)
        shadowTables.insert(name)
      }
    }
    let tables = try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { row -> (name: String, sql: String)? in
      guard let name = row["name"], let sql = row["sql"], !internalTables.contains(name), !virtualTables.contains(name)
      else { return nil }
      return (name, sql)
    }
    let columns = Dictionary(
      grouping: try database.rows(
        """
        SELECT m.name AS tableName, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden
        FROM sqlite_schema AS m, pragma_table_xinfo(m.name) AS p
        WHERE m.type = 'table' ORDER BY m.name, p.cid
        """), by: { $0["tableName"] ?? "" })
    let foreignKeys = Dictionary(
      grouping: try database.rows(
        """
        SELECT m.name AS tableName, p.id, p."table", p."from", p."to", p.on_update, p.on_delete
        FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS p
        WHERE m.type = 'table' ORDER BY m.name, p.id, p.seq
        """), by: { $0["tableName"] ?? "" })
    let indexes = Dictionary(
      grouping: try database.rows(
        """
        SELECT m.name AS tableName, l.name AS indexName, l."unique", l.partial, i.name AS columnName,
          s.sql AS indexSQL
        FROM sqlite_schema AS m, pragma_index_list(m.name) AS l, pragma_index_info(l.name) AS i
        LEFT JOIN sqlite_schema AS s ON s.type = 'index' AND s.name = l.name
        WHERE m.type = 'table' AND l.origin = 'c' ORDER BY m.name, l.name, i.seqno
        """), by: { $0["tableName"] ?? "" })

    let fullSchema = Schema(
      tables: tables.map { table in
        self.table(
          table.name, sql: table.sql, columns: columns[table.name] ?? [],
          foreignKeys: foreignKeys[table.name] ?? [], indexes: indexes[table.name] ?? [],
          flags: flags[table.name] ?? (false, false))
      })
    var schema = fullSchema
    // Only the tables that have generated columns are copied.
    for index in schema.tables.indices where schema.tables[index].columns.contains(where: \.isGenerated) {
      schema.tables[index].columns.removeAll(where: \.isGenerated)
    }
    var objects: [SchemaObject] = []
    var indexSQL: [String: String] = [:]
    // Virtual tables first, then views, then triggers, each by name; shadow tables belong to
    // their virtual table and are left out.
    for row in try database.rows(
      """
      SELECT name, type, tbl_name, sql FROM sqlite_schema
      WHERE type IN ('view', 'trigger', 'index') OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%')
      ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, name
      """)
    {
      guard let name = row["name"], let sql = row["sql"] else { continue }
      switch row["type"] {
      case "index": indexSQL[name] = sql
      case "view": objects.append(.view(name: name, sql: sql))
      case "trigger": objects.append(.trigger(name: name, table: row["tbl_name"] ?? "", sql: sql))
      default: objects.append(.virtualTable(name: name, sql: sql))
      }
    }
    let generatedColumns = columns.mapValues { rows in
      // `hidden` is 2 for a virtual generated column, 3 for a stored one.
      rows.filter { $0.integer("hidden") == 2 || $0.integer("hidden") == 3 }.compactMap { $0["name"] }
    }.filter { !$0.value.isEmpty }
    return Introspection(
      schema: schema, schemaWithGeneratedColumns: fullSchema, objects: objects, indexSQL: indexSQL, virtualTables: virtualTables, shadowTables: shadowTables,
      generatedColumns: generatedColumns)
  }

  /// The columns of the view or virtual table called `name`, in order, with the types SQLite
  /// reports for them; nil when there is no such view or virtual table, or SQLite cannot read it
  /// (a view of a table that is gone).
  static func viewColumns(_ name: String, in database: SQLiteConnection) throws -> [ColumnSchema]? {
    guard
      try !database.rows(
        "SELECT 1 FROM sqlite_schema WHERE (type = 'view' OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%')) AND name = ? COLLATE NOCASE",
        [name]
      ).isEmpty,
      let rows = try? database.rows("SELECT name, type FROM pragma_table_info(?)", [name])
    else { return nil }
    return rows.compactMap { row in row["name"].map { ColumnSchema(name: $0, type: SQLType(declared: row["type"] ?? "")) } }
  }

  /// One table from the rows of the pragma queries.
  private static func table(
    _ name: String, sql: String, columns info: [SQLiteRow], foreignKeys keyRows: [SQLiteRow],
    indexes indexRows: [SQLiteRow], flags: (strict: Bool, withoutRowID: Bool)
  ) -> TableSchema {
    let parsed = CreateTableParser(sql: sql)
    // `pk` is the column's position in the primary key, from 1; 0 for other columns.
    let keyColumns = info.filter { ($0.integer("pk") ?? 0) != 0 }
      .sorted { ($0.integer("pk") ?? 0) < ($1.integer("pk") ?? 0) }
      .compactMap { $0["name"] }
    // Foreign keys on several columns are table constraints, which the parser keeps as text.
    var foreignKeys: [String: ForeignKey] = [:]
    for (_, rows) in Dictionary(grouping: keyRows, by: { $0["id"] ?? "" }).sorted(by: { $0.key < $1.key }) {
      if rows.count == 1, let row = rows.first, let from = row["from"], let target = row["table"] {
        foreignKeys[from] = ForeignKey(
          table: target, column: row["to"] ?? "", onDelete: action(row["on_delete"]), onUpdate: action(row["on_update"]))
      }
    }

    var columns: [ColumnSchema] = []
    // `hidden` is 0 for an ordinary column, 2 for a virtual generated one, 3 for a stored one.
    for row in info where [0, 2, 3].contains(row.integer("hidden") ?? 0) {
      guard let columnName = row["name"] else { continue }
      let details = parsed.columns[columnName] ?? .init()
      var column = ColumnSchema(name: columnName, type: SQLType(declared: row["type"] ?? ""))
      column.isNotNull = row.flag("notnull")
      column.notNullOnConflict = details.notNullOnConflict
      column.defaultValue = row["dflt_value"].map(ColumnDefault.init(reported:))
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
    for (indexName, rows) in Dictionary(grouping: indexRows, by: { $0["indexName"] ?? "" }).sorted(by: { $0.key < $1.key }) {
      guard let first = rows.first else { continue }
      var condition: String?
      if first.flag("partial"), let indexSQL = first["indexSQL"] {
        let tokens = SQLTokenizer.tokens(indexSQL)
        if let whereIndex = tokens.lastIndex(where: { $0.isWord("WHERE") }) {
          condition = SQLTokenizer.normalized(tokens[(whereIndex + 1)...])
        }
      }
      indexes.append(
        IndexSchema(
          name: indexName, table: name, columns: rows.compactMap { $0["columnName"] },
          isUnique: first.flag("unique"), condition: condition, hasExpressions: rows.contains { $0["columnName"] == nil }))
    }

    return TableSchema(
      name: name, columns: columns, compositePrimaryKey: keyColumns.count > 1 ? keyColumns : [],
      isStrict: flags.strict, isWithoutRowID: flags.withoutRowID, indexes: indexes,
      constraints: parsed.tableConstraints)
  }

  /// SQLite's default action, `NO ACTION`, is the same as none.
  private static func action(_ text: String?) -> ReferentialAction? {
    guard let text, let action = ReferentialAction(rawValue: text), action != .noAction else { return nil }
    return action
  }
}
