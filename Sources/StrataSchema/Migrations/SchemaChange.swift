/// One step of a migration: the planner's output and the only thing the renderer, the header,
/// the file name, the data-loss consent and the drift warning read.
///
/// Every reader switches over all the cases, so a new kind of change is a compile error in each
/// place that must say something about it.
enum SchemaChange {
  /// The renames `@Renamed(from:)` asks for, first: the rest is planned on the renamed schema.
  case renames(RenamePlan)
  /// Checks the values of a column the models now read as another type stored the same way; the
  /// migration changes nothing else for it.
  case check(MigrationGuard)
  case dropIndex(IndexSchema)
  /// Drops a view, a trigger or a virtual table; a full-text table that holds its own text
  /// (`holdsData`) only with consent.
  case dropObject(SchemaObject, holdsData: Bool)
  /// Drops a table and its rows: only with consent.
  case dropTable(TableSchema)
  /// Rebuilds a table by SQLite's procedure, copying every row.
  case rebuild(SchemaChanges.Rebuild)
  /// Drops a column nothing depends on, with `ALTER TABLE DROP COLUMN`: only with consent.
  case dropColumn(table: String, column: String)
  case createTable(TableSchema)
  /// Adds a column existing rows can take, with `ALTER TABLE ADD COLUMN`.
  case addColumn(table: String, column: ColumnSchema)
  case createIndex(IndexSchema)
  /// Creates what a model declares: a full-text index (with its sync triggers, indexing the
  /// rows its content table has), a view or a trigger.
  case createObject(DeclaredObject)
  /// Keeps what the older schemas of the compatibility window read and write: a renamed
  /// column's old name, its values copied to the new one and kept in step by triggers; a dropped
  /// column or table, as it is. The migration's header records it (``Expansion/marker``).
  case expand(Expansion)
  /// Drops the triggers that kept a renamed column in step once no schema in the window reads
  /// its old name, and the old column, whose values the new one holds (unless the table's
  /// rebuild drops it).
  case contract(Expansion, dropsColumn: Bool)

  /// A migration's steps, renames first, in the order it runs them.
  static func steps(renames: RenamePlan, changes: SchemaChanges) -> [SchemaChange] {
    (renames.isEmpty ? [] : [.renames(renames)]) + changes.steps
  }

  /// Where the step goes in a migration: checks before anything changes, drops before the
  /// rebuilds that could trip on them, new tables before the columns and indexes that may refer
  /// to them.
  var phase: Int {
    switch self {
    case .renames: -1
    case .check: 0
    // A renamed table's view goes first: it may read a column that goes too.
    case .contract(let expansion, _): expansion.renamedTable != nil ? 0 : 1
    case .dropIndex, .dropObject: 1
    case .dropTable: 2
    case .rebuild: 3
    case .dropColumn: 4
    case .createTable: 5
    case .addColumn: 6
    case .createIndex: 7
    // Sync's capture after the expand step's copy of a renamed column, which is no app's
    // write: recorded, it would be a new write of every row, newer than what other replicas
    // wrote meanwhile, and would overwrite it everywhere.
    case .createObject(.syncCapture): 10
    case .createObject: 8
    case .expand: 9
    }
  }

  /// What the step deletes or drops that the user must consent to: a table's rows, a column's
  /// values, or a constraint of a table taken over that its model does not say.
  var losesData: Bool {
    switch self {
    case .dropTable, .dropColumn: true
    case .dropObject(_, let holdsData): holdsData
    case .renames(let plan): !plan.droppedColumns.isEmpty
    case .rebuild(let rebuild): !rebuild.droppedColumns.isEmpty || !rebuild.lostConstraints.isEmpty
    case .check, .dropIndex, .createTable, .addColumn, .createIndex, .createObject, .expand, .contract: false
    }
  }

  /// The tables whose rows or values the step deletes (not only constraints).
  var tablesLosingValues: [String] {
    switch self {
    case .dropTable(let table): [table.name]
    case .dropObject(let object, let holdsData): holdsData ? [object.name] : []
    case .dropColumn(let table, _): [table]
    case .renames(let plan): plan.droppedColumns.map(\.table)
    case .rebuild(let rebuild): rebuild.droppedColumns.isEmpty ? [] : [rebuild.table.name]
    case .check, .dropIndex, .createTable, .addColumn, .createIndex, .createObject, .expand, .contract: []
    }
  }
}
