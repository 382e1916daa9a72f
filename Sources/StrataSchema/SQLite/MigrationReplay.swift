/// Runs migration files on a scratch SQLite database the way GRDB's migrator runs them at
/// launch: each file in its own transaction, with foreign keys off during the migration and
/// checked before it commits. The build plugin does this for every migration it embeds, and the
/// planner to learn the current schema, so a migration that would fail at launch fails the build
/// at its statement's line instead.
enum MigrationReplay {
  /// Statements a migration may not contain, by their first keyword, and why.
  static let forbiddenStatements: [String: String] = {
    let transaction =
      "a migration runs inside the transaction the migrator opens for it, so %@ would end or nest it: a migration that commits part of its work and then fails runs again on the next launch; remove it"
    var reasons: [String: String] = [:]
    for word in ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"] {
      reasons[word] = transaction.replacingOccurrences(of: "%@", with: word)
    }
    reasons["VACUUM"] = "VACUUM cannot run inside a transaction, and every migration runs in one; run it from the app after migrating"
    for word in ["ATTACH", "DETACH"] {
      reasons[word] = "\(word) cannot run inside a transaction, and every migration runs in one; a migration changes only the database it migrates"
    }
    return reasons
  }()

  /// Pragmas that do nothing, or fail, inside a migration's transaction.
  static let forbiddenPragmas: [String: String] = [
    "foreign_keys":
      "PRAGMA foreign_keys does nothing inside a transaction, and every migration runs in one; the migrator already turns foreign keys off while a migration runs and checks them before it commits",
    "journal_mode": "PRAGMA journal_mode cannot change inside a transaction; set it when opening the database",
  ]

  /// A scratch database with the schema `files` produce, for reading the schema only: built
  /// without running simple `CREATE` statements where possible (see ``SchemaOnlyReplay``),
  /// and by running every statement otherwise.
  ///
  /// - Parameter afterEach: Called after each file, for callers that follow what each file
  ///   creates.
  ///   - functions: The app's SQL functions, which the scratch database stands in for.
  static func schema(
    of files: [MigrationFiles.File], functions: [AppFunction] = [],
    afterEach: (MigrationFiles.File, SQLiteConnection) throws -> Void = { _, _ in }
  ) throws -> SQLiteConnection {
    let fast = try SQLiteConnection(functions: functions)
    if SchemaOnlyReplay.apply(
      files.map(\.sql), to: fast, scratch: try SQLiteConnection(functions: functions), afterEach: { try afterEach(files[$0], fast) })
    {
      return fast
    }
    let database = try SQLiteConnection(functions: functions)
    try apply(files, to: database) { try afterEach($0, database) }
    return database
  }

  /// Applies `files` in order to `database`, stopping at the first that fails.
  ///
  /// - Parameter afterEach: Called after each file commits, for callers that follow what each
  ///   file creates.
  /// - Throws: ``DiagnosticsError`` at the failing statement's line.
  static func apply(
    _ files: [MigrationFiles.File], to database: SQLiteConnection, afterEach: (MigrationFiles.File) throws -> Void = { _ in }
  ) throws {
    for file in files {
      try apply(file, to: database)
      try afterEach(file)
    }
  }

  private static func apply(_ file: MigrationFiles.File, to database: SQLiteConnection) throws {
    func diagnostic(_ message: String, offset: Int) -> DiagnosticsError {
      let (line, column) = SourceFiles.position(ofByte: offset, in: file.sql.utf8)
      return DiagnosticsError([Diagnostic(.error, message, at: SourceLocation(path: file.path, line: line, column: column))])
    }
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
    try database.execute("BEGIN IMMEDIATE")
    do {
      try database.runScript(file.sql) { statement, offset in
        if let reason = refusal(of: statement) { throw diagnostic(reason, offset: offset) }
      }
      let violations = try database.rows(#"SELECT "table", rowid, parent FROM pragma_foreign_key_check LIMIT 3"#)
      if let first = violations.first {
        throw DiagnosticsError([
          Diagnostic(
            .error,
            "after this migration, rows of \(NameRules.display(first["table"] ?? "")) reference rows of \(NameRules.display(first["parent"] ?? "")) that do not exist (rowid \(first["rowid"] ?? "?")); the migrator would roll it back",
            at: SourceLocation(path: file.path, line: 1, column: 1))
        ])
      }
      try database.execute("COMMIT")
    } catch let failure as ScriptFailure {
      try? database.execute("ROLLBACK")
      throw diagnostic("this migration fails on SQLite: \(failure.message)", offset: failure.offset)
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
  }

  /// Why a statement may not be in a migration, or nil when it may.
  static func refusal(of statement: String) -> String? {
    var words = SQLTokenizer.tokens(statement).lazy.filter { $0.kind == .word || $0.kind == .quotedName }
      .map { $0.text.uppercased() }.makeIterator()
    var first = words.next()
    // `EXPLAIN [QUERY PLAN] statement` runs nothing, but say so about the statement anyway.
    if first == "EXPLAIN" {
      first = words.next()
      if first == "QUERY" {
        _ = words.next()
        first = words.next()
      }
    }
    guard let first else { return nil }
    if first == "PRAGMA" {
      var name = words.next()?.lowercased()
      if name == "main" || name == "temp" { name = words.next()?.lowercased() }
      return name.flatMap { forbiddenPragmas[$0] }
    }
    return forbiddenStatements[first]
  }
}
