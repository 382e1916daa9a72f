import StrataSQL

/// What the generator asks of a database flavour. Translation says what each column holds
/// (``ColumnValueType``) and which keys the database assigns; the dialect decides how the
/// database declares them, what it can change in place and what needs a rebuild, and writes the
/// statements of each migration step. SQLite's is ``SQLiteDialect``, in `SQLite/`.
protocol SchemaDialect: Sendable {
  /// The database's name, for messages: `SQLite`.
  var name: String { get }

  /// The declared type of a column that holds `type`.
  func columnType(for type: ColumnValueType) -> SQLType

  /// `column` (named and typed) as a primary key that the database fills in when an insert
  /// leaves it out; nil when the database assigns no keys of `type`.
  func assignedKey(_ column: ColumnSchema, holding type: ColumnValueType) -> ColumnSchema?

  /// The default a Swift `true` or `false` is written as.
  func booleanDefault(_ flag: Bool) -> ColumnDefault

  /// What a model's table asks for that the database cannot hold, reported at the model's line.
  func problems(in table: TableSchema) -> [SchemaChanges.Problem]

  /// Whether a change of `old` into `new` converts the stored values to another type.
  func converts(from old: ColumnSchema, in oldTable: TableSchema, to new: ColumnSchema, in newTable: TableSchema) -> Bool

  /// Why the database cannot add `column` to a table that has rows without rebuilding it; nil
  /// when it can.
  func cannotAdd(_ column: ColumnSchema) -> String?

  /// `CREATE TABLE` with its columns and constraints.
  func createTable(_ table: TableSchema) -> String

  /// `CREATE INDEX`.
  func createIndex(_ index: IndexSchema) -> String

  /// The statements that make `step`, given the schema they start from (for what a rebuild
  /// must drop and recreate around a table).
  func statements(for step: SchemaChange, from current: SchemaIntrospector.Introspection) -> [String]

  /// The comment above a migration's checks, which says how a failing one reports.
  var checksComment: String { get }

  /// How a migration's header says a table is changed beyond what adding and dropping do:
  /// `rebuild table "t", copying every row` (SQLite), `alter table "t" in place` (PostgreSQL);
  /// and the word its file name uses.
  func changing(table: String) -> (line: String, fileNameVerb: String)

  /// Header lines about what the steps do to a table in use on a live server: statements that
  /// rewrite a table or block its writes while they run.
  func liveServerNotes(for steps: [SchemaChange]) -> [String]

  /// A scratch database with what `files` make, replayed as `mode` says. `afterEach` sees the
  /// database after each file that runs (none of those a checkpoint covers). A dialect may
  /// ignore a checkpoint and run every file.
  ///
  /// - Throws: ``DiagnosticsError`` at the statement that fails.
  func replay(
    _ files: [MigrationFiles.File], _ mode: ReplayMode,
    afterEach: (MigrationFiles.File, any ScratchDatabase) throws -> Void
  ) throws -> any ScratchDatabase

  /// A scratch database with what `files` make and then `generated`, the migration the planner
  /// wrote, which must run.
  ///
  /// - Throws: ``InputError`` when the generated migration fails.
  func replay(_ files: [MigrationFiles.File], then generated: String) throws -> any ScratchDatabase

  /// The schema of `tables` (and their indexes) as the database reads it back, generated
  /// columns included.
  ///
  /// - Throws: ``RefusedTable`` for the first table the database refuses.
  func schema(creating tables: [TableSchema]) throws -> Schema

  /// The objects `objects` make, as the database keeps them, created over `tables`.
  ///
  /// - Throws: ``RefusedTable`` for the first object the database refuses, by its name.
  func objects(creating objects: [DeclaredObject], over tables: [TableSchema]) throws -> [SchemaObject]
}

/// A private database the planner replays migrations into and reads back.
protocol ScratchDatabase: AnyObject {
  /// Runs statements the planner wrote: the renames, before comparing the rest.
  func execute(_ sql: String) throws
  /// The schema as it is now.
  func introspect() throws -> SchemaIntrospector.Introspection
  /// The names of the tables, for following which migration made each.
  func tableNames() throws -> [String]
  /// The columns of the view (or virtual table) called `name`; nil when there is none, or the
  /// database cannot read it.
  func viewColumns(_ name: String) throws -> [ColumnSchema]?
  /// The database's bytes, for a later build to start from; nil where the database cannot be
  /// saved that way (a PostgreSQL server's).
  func serialized() throws -> [UInt8]?
  /// Whether the database holds only a schema, tables without storage (see
  /// ``SchemaOnlyReplay``): it can be compared and can run statements that change only the
  /// schema, but nothing that reads or writes rows, such as dropping a column.
  var holdsSchemaOnly: Bool { get }
}

/// A table of the models that the database refuses to create.
struct RefusedTable: Error {
  var table: String
  /// The database's message.
  var message: String
}

extension SchemaDialect {
  /// The statements SQLite and PostgreSQL write alike: renames, and drops of an index, a table
  /// or a column (none for the other steps, which each dialect writes its own way).
  func sharedStatements(for step: SchemaChange) -> [String] {
    switch step {
    case .renames(let plan):
      plan.operations.map { operation in
        switch operation {
        case .renameTable(let from, let to):
          "ALTER TABLE \(SQLQuoting.identifier(from)) RENAME TO \(SQLQuoting.identifier(to));"
        case .renameColumn(let table, let from, let to):
          "ALTER TABLE \(SQLQuoting.identifier(table)) RENAME COLUMN \(SQLQuoting.identifier(from)) TO \(SQLQuoting.identifier(to));"
        case .dropColumn(let table, let column):
          "ALTER TABLE \(SQLQuoting.identifier(table)) DROP COLUMN \(SQLQuoting.identifier(column));"
        }
      }
    case .dropIndex(let index): ["DROP INDEX \(SQLQuoting.identifier(index.name));"]
    case .dropTable(let table): ["DROP TABLE \(SQLQuoting.identifier(table.name));"]
    case .dropColumn(let table, let column):
      ["ALTER TABLE \(SQLQuoting.identifier(table)) DROP COLUMN \(SQLQuoting.identifier(column));"]
    case .check, .rebuild, .createTable, .addColumn, .createIndex, .dropObject, .createObject, .expand, .contract: []
    }
  }
}
