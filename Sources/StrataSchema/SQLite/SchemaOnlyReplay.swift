import StrataSQL
import GRDBSQLite

/// Builds a schema in a scratch database without SQLite's per-statement cost.
///
/// SQLite re-reads its schema table after every `CREATE`, which makes creating *n* tables cost
/// O(n²): five thousand tables and their indexes take seconds. Where only the schema matters,
/// simple `CREATE TABLE` and `CREATE INDEX` statements are instead written into `sqlite_schema`
/// directly (with `PRAGMA writable_schema`) and SQLite parses them all at once. Such tables have
/// no storage, so any statement that would read or write rows, or anything unusual, makes the
/// replay give up and the caller run the real statements instead; so does any error, so that
/// errors are always SQLite's own, at their statement.
///
/// The build plugin validates migrations by running them. With `checkingFrom`, each simple
/// `CREATE` also runs, as the migrator would run it, on an otherwise empty database (an index
/// with its table), and is rolled back there: a statement SQLite would refuse at launch makes the
/// replay give up, so the caller runs every statement and reports SQLite's error at its line.
/// That costs the same for every statement, where running them on the whole schema costs more
/// for each table already created.
///
/// An `ALTER TABLE … ADD COLUMN` is run the same way, with its table alone, and the table's
/// `CREATE` that SQLite stores afterwards replaces the old one, unless the schema has views or
/// triggers (which SQLite reads again when a table changes) or the table has storage (it may
/// hold rows, which SQLite checks the column against): a long history of added columns would
/// otherwise cost a read of the whole schema for each.
enum SchemaOnlyReplay {
  /// Applies scripts in order; returns false, leaving `database` unusable, when one of them
  /// needs a real run.
  ///
  /// - Parameters:
  ///   - scratch: An empty database, with the same functions as `database`, to run each
  ///     `ALTER TABLE … ADD COLUMN` and each checked `CREATE` on; nil to run such an `ALTER`
  ///     on `database` and check nothing.
  ///   - firstChecked: The first script whose simple `CREATE`s run on `scratch` (those before it
  ///     ran in an earlier build); nil to check none.
  static func apply(
    _ scripts: [String], to database: SQLiteConnection, scratch: SQLiteConnection? = nil,
    checkingFrom firstChecked: Int? = nil, afterEach: (Int) throws -> Void = { _ in }
  ) -> Bool {
    // SQLite checks that an index's root page lies within the file and differs from the other
    // indexes of its table. Freed pages give the file that size; nothing ever reads them.
    guard let pageCount = try? database.reserveFreePages(bytes: 1 << 20),
      var schema = try? database.schemaObjects(), let functions = try? database.functionNames()
    else { return false }
    database.holdsSchemaOnly = true
    var indexesPerTable: [String: Int] = [:]
    var pending: [SchemaWrite] = []
    /// Whether SQLite reads views or triggers again when a table changes.
    func hasViewsOrTriggers() -> Bool { schema.values.contains { ["view", "trigger"].contains($0.type) } }
    var viewsOrTriggers = hasViewsOrTriggers()
    /// Whether rows were written that SQLite has not read yet.
    var unread = false
    /// Writes the pending rows and, with `reset`, has SQLite read everything written.
    func flush(reset: Bool) -> Bool {
      do {
        if reset, pending.isEmpty, unread {
          try database.execute("PRAGMA writable_schema = RESET")
          unread = false
        }
        guard !pending.isEmpty else { return true }
        try database.execute("PRAGMA writable_schema = ON")
        for write in pending {
          switch write {
          case .create(let create):
            var rootPage = 0
            if create.type == "index" {
              let position = indexesPerTable[create.tableName, default: 0]
              indexesPerTable[create.tableName] = position + 1
              rootPage = 2 + position
              guard rootPage < pageCount else { return false }
            }
            let inserted = try database.rows(
              "INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?) RETURNING rowid",
              [create.type, create.name, create.tableName, String(rootPage), create.sql])
            schema[SQLName.folded(create.name)]?.rowid = inserted.first?["rowid"]
          case .replaceTable(let name, let sql):
            // By rowid: `sqlite_schema` has no index on names, and a scan for each added column
            // would grow with the square of the tables.
            guard let rowid = schema[SQLName.folded(name)]?.rowid else { return false }
            _ = try database.rows("UPDATE sqlite_schema SET sql = ? WHERE rowid = CAST(? AS INTEGER)", [sql, rowid])
          }
        }
        pending.removeAll()
        unread = true
        if reset {
          try database.execute("PRAGMA writable_schema = RESET")
          unread = false
        }
        return true
      } catch {
        return false
      }
    }
    for (index, script) in scripts.enumerated() {
      for statement in SQLStatements.split(script) {
        if MigrationReplay.refusal(of: statement.text) != nil { return false }
        if let create = SimpleCreate(statement.text, functions: functions) {
          // SQLite checks that names are free only when it runs a statement.
          let name = SQLName.folded(create.name)
          guard schema.index(forKey: name) == nil else { return false }
          if let scratch, let firstChecked, index >= firstChecked,
            !runs(statement.text, creating: create, on: scratch, tables: schema)
          {
            return false
          }
          schema[name] = SQLiteConnection.SchemaObject(type: create.type, hasStorage: false, sql: create.sql)
          pending.append(.create(create))
          continue
        }
        // A table with storage may hold rows, which SQLite checks an added column against (a
        // `CHECK`, a `NOT NULL`): its column is added on `database`, below.
        if let scratch, !viewsOrTriggers, let table = addedColumnTable(statement.text),
          let object = schema[SQLName.folded(table)], object.type == "table", !object.hasStorage, let old = object.sql
        {
          guard let new = tableSQL(after: statement.text, creating: old, named: table, on: scratch) else { return false }
          schema[SQLName.folded(table)]?.sql = new
          pending.append(.replaceTable(name: table, sql: new))
          continue
        }
        guard isSchemaOnly(statement.text), flush(reset: true) else { return false }
        do {
          try database.execute(statement.text)
          schema = try database.schemaObjects()
          viewsOrTriggers = hasViewsOrTriggers()
        } catch {
          return false
        }
      }
      guard flush(reset: false) else { return false }
      do {
        try afterEach(index)
      } catch {
        return false
      }
    }
    do {
      try database.execute("PRAGMA writable_schema = RESET")
      // Parses everything written; a statement SQLite cannot read fails here.
      _ = try database.rows("SELECT count(*) FROM pragma_table_list")
    } catch {
      return false
    }
    return true
  }

  /// Whether `statement`, the simple `CREATE` `create`, runs on `scratch`, empty but for the
  /// table it indexes (whose `CREATE` is in `tables`, by folded name). Rolled back either way.
  private static func runs(
    _ statement: String, creating create: SimpleCreate, on scratch: SQLiteConnection,
    tables: [String: SQLiteConnection.SchemaObject]
  ) -> Bool {
    var script = [statement]
    if create.type == "index" {
      // A table the replay cannot name the `CREATE` of (a view's name, say) is left to a real run.
      guard let table = tables[SQLName.folded(create.tableName)], table.type == "table", let sql = table.sql
      else { return false }
      script.insert(sql, at: 0)
    }
    do {
      try scratch.execute("BEGIN")
      defer { try? scratch.execute("ROLLBACK") }
      for statement in script { try scratch.execute(statement) }
      return true
    } catch {
      return false
    }
  }

  /// A row of `sqlite_schema` the replay writes.
  private enum SchemaWrite {
    case create(SimpleCreate)
    /// A table's new `CREATE`, after a column was added.
    case replaceTable(name: String, sql: String)
  }

  /// The table `ALTER TABLE "t" ADD [COLUMN] …` adds a column to, when it names one of the main
  /// schema.
  private static func addedColumnTable(_ statement: String) -> String? {
    var reader = SQLTokenReader(SQLTokenizer.tokens(statement)[...])
    guard reader.word("ALTER"), reader.word("TABLE"), let table = reader.name(), reader.word("ADD") else { return nil }
    return table
  }

  /// The `CREATE` SQLite stores for `table` after `statement` adds a column to it, run on
  /// `scratch` with only that table (whose `CREATE` is `sql`) and rolled back; nil when SQLite
  /// refuses either.
  private static func tableSQL(
    after statement: String, creating sql: String, named table: String, on scratch: SQLiteConnection
  ) -> String? {
    do {
      try scratch.execute("BEGIN")
      defer { try? scratch.execute("ROLLBACK") }
      try scratch.execute(sql)
      try scratch.execute(statement)
      return try scratch.rows("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", [table])
        .first?["sql"] ?? nil
    } catch {
      return nil
    }
  }

  /// Statements that change only the schema, which SQLite runs without touching rows of tables
  /// that have no storage: renames, added columns, new tables, views and triggers, and dropping
  /// views and triggers. (Dropping a table or an index frees its pages, which such tables and indexes do
  /// not own.)
  private static func isSchemaOnly(_ statement: String) -> Bool {
    let words = SQLTokenizer.tokens(statement).prefix(6).map { $0.kind == .word ? $0.text.uppercased() : $0.text }
    guard let first = words.first else { return true }
    switch first {
    case "ALTER":
      // ADD COLUMN and RENAME rewrite the schema only; DROP COLUMN rewrites every row.
      return !words.contains("DROP")
    case "CREATE":
      if words.contains("VIEW") || words.contains("TRIGGER") { return true }
      // A table with a column list, not `AS SELECT`: it creates an empty table.
      let tokens = SQLTokenizer.tokens(statement)
      guard words.contains("TABLE"), !words.contains("VIRTUAL"),
        let open = tokens.firstIndex(where: { $0.text == "(" || $0.isWord("AS") })
      else { return false }
      return tokens[open].text == "("
    case "DROP":
      return words.count > 1 && ["VIEW", "TRIGGER"].contains(words[1])
    default:
      return false
    }
  }
}

/// `CREATE TABLE "name" (…)` or `CREATE [UNIQUE] INDEX "name" ON "table" (…)`, with no `TEMP`,
/// `IF NOT EXISTS`, schema name, `AS SELECT` or comment: the forms whose `sqlite_schema` row is
/// known without running them. Anything else is not one.
///
/// SQLite reading its schema is more lenient than SQLite running a statement in a few ways:
/// it does not look up functions and collations, and accepts parameters in defaults. A statement
/// that calls a function `functions` does not list, names a collation other than the built-in
/// ones, or has a parameter is therefore not simple, and runs for real.
struct SimpleCreate {
  var type: String
  var name: String
  var tableName: String
  /// The text SQLite would store: `CREATE TABLE ` and the statement from the name on.
  var sql: String

  private static let builtInCollations: Set<String> = ["BINARY", "NOCASE", "RTRIM"]
  /// Words that open parentheses without being functions.
  private static let structuralWords: Set<String> = [
    "CHECK", "DEFAULT", "AS", "KEY", "UNIQUE", "IN", "EXISTS", "AND", "OR", "NOT", "ON", "WHERE",
  ]

  init?(_ statement: String, functions: Set<String>) {
    let tokens = SQLTokenizer.tokens(statement, keepingComments: true)
    // Where a comment falls in the text SQLite stores is not followed here; a `;` before the
    // end means more than one statement.
    guard !tokens.contains(where: { $0.kind == .comment }),
      let last = tokens.lastIndex(where: { $0.text != ";" || $0.kind != .symbol }),
      !tokens[..<last].contains(where: { $0.text == ";" && $0.kind == .symbol })
    else { return nil }
    var reader = SQLTokenReader(tokens[...last])
    guard reader.word("CREATE") else { return nil }
    let isUnique = reader.word("UNIQUE")
    if reader.word("TABLE"), !isUnique {
      type = "table"
    } else if reader.word("INDEX") {
      type = "index"
    } else {
      return nil
    }
    let rest = reader.tokens
    guard let name = reader.name(), !SQLName.folded(name).hasPrefix("sqlite_"),
      !["IF", "TEMP", "TEMPORARY"].contains(name.uppercased()) || reader.peek(is: "(")
    else { return nil }
    self.name = name
    if type == "table" {
      guard reader.peek(is: "(") else { return nil }
      tableName = name
    } else {
      guard reader.word("ON"), let table = reader.name(), reader.peek(is: "(") else { return nil }
      tableName = table
    }
    guard let first = rest.first, Self.usesOnlyKnownNames(Array(rest), functions: functions) else { return nil }
    let text = String(decoding: Array(statement.utf8)[first.range.lowerBound..<tokens[last].range.upperBound], as: UTF8.self)
    sql = (type == "table" ? "CREATE TABLE " : isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + text
  }
}

extension SimpleCreate {
  /// No parameters, no collation but the built-in ones, and no call of an unknown function
  /// (names that only look like calls, such as `VARCHAR(10)`, count as unknown: such a statement
  /// just runs for real).
  fileprivate static func usesOnlyKnownNames(_ tokens: [SQLToken], functions: Set<String>) -> Bool {
    for (index, token) in tokens.enumerated() {
      if token.kind == .symbol, ["?", ":", "@", "$"].contains(token.text) { return false }
      if token.isWord("COLLATE") {
        guard index + 1 < tokens.count, tokens[index + 1].isName,
          builtInCollations.contains(tokens[index + 1].text.uppercased())
        else { return false }
      }
      // The first name is the statement's own, followed by its columns; a name after ON or
      // REFERENCES is a table's, followed by its columns.
      if index > 0, !tokens[index - 1].isWord("ON"), !tokens[index - 1].isWord("REFERENCES"),
        token.isName, index + 1 < tokens.count, tokens[index + 1].text == "(",
        !(token.kind == .word && structuralWords.contains(token.text.uppercased())),
        !functions.contains(token.text.lowercased())
      {
        return false
      }
    }
    return true
  }
}

/// Splits a script into statements the way SQLite does, trigger bodies included, without
/// preparing them (a statement may name a table the previous one creates).
enum SQLStatements {
  static func split(_ script: String) -> [(text: String, offset: Int)] {
    let lexer = SQLLexer(script)
    var statements: [(String, Int)] = []
    var start: Int?
    for lexeme in lexer {
      let first = start ?? lexeme.range.lowerBound
      start = first
      // A `;` ends a statement unless it is inside a trigger's body, as SQLite decides.
      guard lexeme.kind == .symbol, lexer.bytes[lexeme.range.lowerBound] == UInt8(ascii: ";") else { continue }
      let text = lexer.text(first..<lexeme.range.upperBound)
      if sqlite3_complete(text) != 0 {
        statements.append((text, first))
        start = nil
      }
    }
    if let start {
      statements.append((lexer.text(start..<lexer.bytes.count), start))
    }
    return statements
  }
}
