import StrataSQL

/// The statements that rebuild a table, following SQLite's documented procedure for schema
/// changes `ALTER TABLE` cannot make (https://www.sqlite.org/lang_altertable.html#otheralter):
/// create the new table, copy the rows, drop the old table, rename the new one, and recreate the
/// indexes, triggers and views that belong to it or use it.
///
/// The migrator runs every migration with foreign keys off and checks them before it commits, so
/// dropping the old table deletes no row of the tables that reference it, and a copied row that
/// breaks a new foreign key stops the migration instead of being lost.
struct TableRebuild {
  let rebuild: SchemaChanges.Rebuild
  let current: SchemaIntrospector.Introspection

  var statements: [String] {
    let table = rebuild.table
    let name = SQLQuoting.identifier(table.name)
    let newName = temporaryName
    var statements = rebuild.guards.isEmpty ? [] : [MigrationGuard.comment] + rebuild.guards.map(\.sql)
    // Views and triggers that use the table would stop the rename below; they come back after,
    // views before the triggers on them (which go with a view, so they are dropped first).
    let using = current.dependents.filter { $0.uses(table.name) }
    let views = Set(using.filter { $0.kind == .view }.map { SQLName.folded($0.name) })
    let onViews = current.dependents.filter { object in
      if case .trigger(_, let target, _) = object { views.contains(SQLName.folded(target)) } else { false }
    }
    let dependents = using.filter { $0.kind == .view } + (using + onViews).filter { $0.kind != .view }.uniqued
    for dependent in dependents.reversed() {
      statements.append("DROP \(dependent.kind.rawValue) \(SQLQuoting.identifier(dependent.name));")
    }
    var created = table
    created.name = newName
    created.indexes = []
    statements.append(SQLRenderer.createTable(created))

    var targets = rebuild.sources.map { SQLQuoting.identifier($0.column) }
    var values = rebuild.sources.map(\.expression)
    // A table without an INTEGER PRIMARY KEY keeps its rows' rowids, which other data (an FTS
    // index with external content, say) may hold.
    if rebuild.copiesRowids {
      targets.insert("rowid", at: 0)
      values.insert("rowid", at: 0)
    }
    statements.append(
      "INSERT INTO \(SQLQuoting.identifier(newName)) (\(targets.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(name);")
    // AUTOINCREMENT never reuses a key, even of a deleted row: carry the counter over.
    if table.columns.contains(where: { $0.primaryKey?.isAutoincrement == true }),
      rebuild.current.columns.contains(where: { $0.primaryKey?.isAutoincrement == true })
    {
      statements.append("DELETE FROM sqlite_sequence WHERE name = \(SQLQuoting.string(newName));")
      statements.append(
        "INSERT INTO sqlite_sequence (name, seq) SELECT \(SQLQuoting.string(newName)), seq FROM sqlite_sequence WHERE name = \(SQLQuoting.string(table.name));")
    }
    statements.append("DROP TABLE \(name);")
    statements.append("ALTER TABLE \(SQLQuoting.identifier(newName)) RENAME TO \(name);")
    statements += table.indexes.map(SQLRenderer.createIndex)
    for index in rebuild.current.indexes where !rebuild.conventionalIndexes.contains(index.name) {
      if let sql = current.indexSQL[index.name] { statements.append(sql + ";") }
    }
    statements += dependents.map { $0.sql + ";" }
    return statements
  }

  /// `strata_new_<table>`, which the rename gives back its name.
  var temporaryName: String { "strata_new_" + rebuild.table.name }
}

extension Array where Element == SchemaObject {
  /// The objects, each once, in their first place.
  fileprivate var uniqued: [SchemaObject] {
    var seen: Set<String> = []
    return filter { seen.insert(SQLName.folded($0.name)).inserted }
  }
}
