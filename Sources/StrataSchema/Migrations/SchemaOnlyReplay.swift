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
/// The build plugin never uses this: it validates migrations by running them.
enum SchemaOnlyReplay {
  /// Applies scripts in order; returns false, leaving `database` unusable, when one of them
  /// needs a real run.
  static func apply(_ scripts: [String], to database: SQLiteConnection, afterEach: (Int) throws -> Void = { _ in }) -> Bool {
    // SQLite checks that an index's root page lies within the file and differs from the other
    // indexes of its table. Freed pages give the file that size; nothing ever reads them.
    guard let pageCount = try? database.reserveFreePages(bytes: 1 << 20),
      var names = try? database.schemaNames(), let functions = try? database.functionNames()
    else { return false }
    var indexesPerTable: [String: Int] = [:]
    var pending: [SimpleCreate] = []
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
        for create in pending {
          var rootPage = 0
          if create.type == "index" {
            let position = indexesPerTable[create.tableName, default: 0]
            indexesPerTable[create.tableName] = position + 1
            rootPage = 2 + position
            guard rootPage < pageCount else { return false }
          }
          _ = try database.rows(
            "INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?)",
            [create.type, create.name, create.tableName, String(rootPage), create.sql])
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
          guard names.insert(SQLName.folded(create.name)).inserted else { return false }
          pending.append(create)
          continue
        }
        guard isSchemaOnly(statement.text), flush(reset: true) else { return false }
        do {
          try database.execute(statement.text)
          names = try database.schemaNames()
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
    var scanner = SQLScanner(statement)
    guard scanner.keyword("CREATE") else { return nil }
    let isUnique = scanner.keyword("UNIQUE")
    if scanner.keyword("TABLE"), !isUnique {
      type = "table"
    } else if scanner.keyword("INDEX") {
      type = "index"
    } else {
      return nil
    }
    let nameStart = scanner.position
    guard let name = scanner.name(), !SQLName.folded(name).hasPrefix("sqlite_"),
      !["IF", "TEMP", "TEMPORARY"].contains(name.uppercased()) || scanner.peek(is: "(")
    else { return nil }
    self.name = name
    if type == "table" {
      guard scanner.peek(is: "(") else { return nil }
      tableName = name
    } else {
      guard scanner.keyword("ON"), let table = scanner.name(), scanner.peek(is: "(") else { return nil }
      tableName = table
    }
    guard let rest = scanner.restWithoutComments(from: nameStart),
      Self.usesOnlyKnownNames(SQLTokenizer.tokens(rest), functions: functions)
    else { return nil }
    sql = (type == "table" ? "CREATE TABLE " : isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + rest
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

/// A cursor over one SQL statement, for recognizing a few fixed forms.
struct SQLScanner {
  let bytes: [UInt8]
  var position = 0

  init(_ text: String) {
    bytes = Array(text.utf8)
    skipSpaces()
  }

  private mutating func skipSpaces() {
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[position]) { position += 1 }
  }

  /// Consumes `word` (any case) when it comes next as a whole word.
  mutating func keyword(_ word: String) -> Bool {
    let target = Array(word.utf8)
    guard position + target.count <= bytes.count else { return false }
    for (offset, byte) in target.enumerated() {
      let actual = bytes[position + offset]
      let upper = actual >= 0x61 && actual <= 0x7A ? actual - 0x20 : actual
      if upper != byte { return false }
    }
    let end = position + target.count
    if end < bytes.count, Self.isWordByte(bytes[end]) { return false }
    position = end
    skipSpaces()
    return true
  }

  func peek(is text: String) -> Bool {
    bytes[position...].starts(with: Array(text.utf8))
  }

  /// A bare or quoted name, unquoted; nil when a `.` follows (a schema name).
  mutating func name() -> String? {
    guard position < bytes.count else { return nil }
    var result: [UInt8] = []
    let first = bytes[position]
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "`") || first == UInt8(ascii: "[") {
      let close = first == UInt8(ascii: "[") ? UInt8(ascii: "]") : first
      position += 1
      while position < bytes.count {
        if bytes[position] == close {
          if close != UInt8(ascii: "]"), position + 1 < bytes.count, bytes[position + 1] == close {
            result.append(close)
            position += 2
            continue
          }
          break
        }
        result.append(bytes[position])
        position += 1
      }
      guard position < bytes.count else { return nil }
      position += 1
    } else {
      while position < bytes.count, Self.isWordByte(bytes[position]) {
        result.append(bytes[position])
        position += 1
      }
      guard !result.isEmpty else { return nil }
    }
    skipSpaces()
    if peek(is: ".") { return nil }
    return String(decoding: result, as: UTF8.self)
  }

  /// The text from `start` to the end, without a trailing `;` and spaces; nil when it holds a
  /// comment, whose place in SQLite's stored text this scanner does not follow.
  func restWithoutComments(from start: Int) -> String? {
    var end = bytes.count
    while end > start, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ";")].contains(bytes[end - 1]) { end -= 1 }
    let text = bytes[start..<end]
    var quote: UInt8?
    for (index, byte) in zip(text.indices, text) {
      if let open = quote {
        if byte == open { quote = nil }
        continue
      }
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"): quote = byte
      case UInt8(ascii: "["): quote = UInt8(ascii: "]")
      case UInt8(ascii: "-") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "-"): return nil
      case UInt8(ascii: "/") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "*"): return nil
      case UInt8(ascii: ";"): return nil
      default: break
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
  }
}

/// Splits a script into statements the way SQLite does, trigger bodies included, without
/// preparing them (a statement may name a table the previous one creates).
enum SQLStatements {
  static func split(_ script: String) -> [(text: String, offset: Int)] {
    let bytes = Array(script.utf8)
    var statements: [(String, Int)] = []
    var start = SQLTrivia.end(of: bytes, from: 0)
    var index = start
    var quote: UInt8?
    while index < bytes.count {
      let byte = bytes[index]
      if let open = quote {
        if byte == open { quote = nil }
        index += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
        quote = byte
      case UInt8(ascii: "["):
        quote = UInt8(ascii: "]")
      case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        continue
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        index += 2
        while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
          index += 1
        }
        index += 2
        continue
      case UInt8(ascii: ";"):
        let text = String(decoding: bytes[start...index], as: UTF8.self)
        if sqlite3_complete(text) != 0 {
          statements.append((text, start))
          start = SQLTrivia.end(of: bytes, from: index + 1)
          index = start
          continue
        }
      default:
        break
      }
      index += 1
    }
    if start < bytes.count {
      statements.append((String(decoding: bytes[start...], as: UTF8.self), start))
    }
    return statements
  }
}
