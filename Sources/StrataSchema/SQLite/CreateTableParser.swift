import StrataSQL

/// Reads what SQLite's pragmas do not report from a `CREATE TABLE` statement: each column's
/// collation, `ON CONFLICT` clauses, `AUTOINCREMENT`, `UNIQUE` and other constraints, and the
/// table's own constraints.
struct CreateTableParser {
  struct ColumnDetails {
    var collation: Collation?
    var notNullOnConflict: ConflictResolution?
    var primaryKeyOnConflict: ConflictResolution?
    var isAutoincrement = false
    var isUnique = false
    var otherConstraints: [ColumnConstraint] = []
  }

  var columns: [String: ColumnDetails] = [:]
  var tableConstraints: [TableConstraint] = []

  init(sql: String) {
    let tokens = SQLTokenizer.tokens(sql)
    guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return }
    var depth = 0
    var item: [SQLToken] = []
    var items: [[SQLToken]] = []
    for token in tokens[(open + 1)...] {
      if token.text == "(" { depth += 1 }
      if token.text == ")" {
        if depth == 0 {
          items.append(item)
          break
        }
        depth -= 1
      }
      if token.text == ",", depth == 0 {
        items.append(item)
        item = []
      } else {
        item.append(token)
      }
    }
    for item in items where !item.isEmpty {
      if let first = item.first, ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(where: first.isWord) {
        // Keys and single-column foreign keys come from the pragmas.
        if first.isWord("PRIMARY") { continue }
        if first.isWord("FOREIGN"), Self.firstListCount(item) < 2 { continue }
        tableConstraints.append(Self.tableConstraint(item))
      } else if item[0].isName {
        columns[item[0].text] = Self.details(item.dropFirst())
      }
    }
  }

  /// A table constraint by kind, or as normalized SQL when it has a clause the kinds do not hold.
  private static func tableConstraint(_ item: [SQLToken]) -> TableConstraint {
    var reader = SQLTokenReader(item[...])
    let name = reader.constraintName()
    let raw = TableConstraint.raw(SQLTokenizer.normalized(item))
    if reader.word("CHECK") {
      guard let expression = reader.parenthesized(), reader.isAtEnd else { return raw }
      return .check(CheckConstraint(name: name, expression: SQLTokenizer.normalized(expression)))
    }
    if reader.word("UNIQUE") {
      guard let columns = reader.nameList() else { return raw }
      let onConflict = reader.conflictClause()
      return reader.isAtEnd ? .unique(name: name, columns: columns, onConflict: onConflict) : raw
    }
    if reader.word("FOREIGN"), reader.word("KEY"), let columns = reader.nameList(), reader.word("REFERENCES"),
      let table = reader.name(), let referenced = reader.nameList()
    {
      var actions: [String: ReferentialAction] = [:]
      while reader.word("ON") {
        guard let event = reader.next(), event.isWord("DELETE") || event.isWord("UPDATE"), let action = reader.action()
        else { return raw }
        actions[event.text.uppercased()] = action
      }
      guard reader.isAtEnd else { return raw }
      return .foreignKey(
        name: name, columns: columns, references: table, referencedColumns: referenced, onDelete: actions["DELETE"],
        onUpdate: actions["UPDATE"])
    }
    return raw
  }

  /// How many names the first parenthesized list of a constraint holds: `FOREIGN KEY (a, b)`.
  private static func firstListCount(_ tokens: [SQLToken]) -> Int {
    guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return 0 }
    let close = tokens[open...].firstIndex { $0.text == ")" } ?? tokens.endIndex
    return tokens[(open + 1)..<close].filter(\.isName).count
  }

  private static func details(_ tokens: ArraySlice<SQLToken>) -> ColumnDetails {
    var details = ColumnDetails()
    var index = tokens.startIndex
    func word(at offset: Int) -> SQLToken? {
      index + offset >= tokens.startIndex && index + offset < tokens.endIndex ? tokens[index + offset] : nil
    }
    /// The tokens from `start` through the parenthesized group that follows.
    func skipParenthesized() {
      while index < tokens.endIndex, tokens[index].text != "(" { index += 1 }
      var depth = 0
      while index < tokens.endIndex {
        if tokens[index].text == "(" { depth += 1 }
        if tokens[index].text == ")" {
          depth -= 1
          if depth == 0 {
            index += 1
            return
          }
        }
        index += 1
      }
    }
    func conflictClause() -> ConflictResolution? {
      guard word(at: 0)?.isWord("ON") == true, word(at: 1)?.isWord("CONFLICT") == true, let resolution = word(at: 2)
      else { return nil }
      index += 3
      return ConflictResolution(rawValue: resolution.text.uppercased())
    }
    // The name of the constraint that follows, which a check or generated column keeps.
    var constraintName: String?
    while index < tokens.endIndex {
      let token = tokens[index]
      if token.isWord("PRIMARY") {
        index += 2
        if word(at: 0)?.isWord("ASC") == true || word(at: 0)?.isWord("DESC") == true { index += 1 }
        details.primaryKeyOnConflict = conflictClause()
        if word(at: 0)?.isWord("AUTOINCREMENT") == true {
          details.isAutoincrement = true
          index += 1
        }
      } else if token.isWord("NOT"), word(at: 1)?.isWord("NULL") == true {
        index += 2
        details.notNullOnConflict = conflictClause()
      } else if token.isWord("NULL") {
        index += 1
        _ = conflictClause()
      } else if token.isWord("UNIQUE") {
        index += 1
        details.isUnique = true
        _ = conflictClause()
      } else if token.isWord("COLLATE"), let name = word(at: 1) {
        details.collation = Collation(named: name.text)
        index += 2
      } else if token.isWord("DEFAULT") {
        index += 1
        if word(at: 0)?.text == "(" {
          skipParenthesized()
        } else {
          if word(at: 0)?.text == "-" || word(at: 0)?.text == "+" { index += 1 }
          index += 1
        }
      } else if token.isWord("REFERENCES") {
        // The foreign key itself comes from the pragma; skip its clauses.
        index += 2
        if word(at: 0)?.text == "(" { skipParenthesized() }
        while let next = word(at: 0),
          ["ON", "MATCH", "DEFERRABLE", "NOT", "INITIALLY", "DELETE", "UPDATE", "SET", "NULL", "DEFAULT",
            "CASCADE", "RESTRICT", "NO", "ACTION", "DEFERRED", "IMMEDIATE", "SIMPLE", "FULL", "PARTIAL"].contains(where: next.isWord)
        {
          if next.isWord("NOT"), word(at: 1)?.isWord("DEFERRABLE") != true { break }
          if next.isWord("NULL"), word(at: -1)?.isWord("SET") != true { break }
          index += 1
        }
      } else if token.isWord("CHECK") || token.isWord("GENERATED") || token.isWord("AS") {
        let start = index
        skipParenthesized()
        var storage: GeneratedStorage?
        while let next = word(at: 0), next.isWord("STORED") || next.isWord("VIRTUAL") {
          storage = GeneratedStorage(rawValue: next.text.uppercased())
          index += 1
        }
        details.otherConstraints.append(Self.columnConstraint(tokens[start..<index], name: constraintName, storage: storage))
        constraintName = nil
      } else if token.isWord("CONSTRAINT") {
        constraintName = word(at: 1).flatMap { $0.isName ? $0.text : nil }
        index += 2
      } else {
        // The type name and its size, such as `VARCHAR(10)`.
        index += 1
        if word(at: 0)?.text == "(" { skipParenthesized() }
      }
    }
    return details
  }

  /// A `CHECK` or `GENERATED` column constraint from its tokens (the keyword through the
  /// closing parenthesis and the storage).
  private static func columnConstraint(
    _ tokens: ArraySlice<SQLToken>, name: String?, storage: GeneratedStorage?
  ) -> ColumnConstraint {
    var reader = SQLTokenReader(tokens)
    if reader.word("CHECK"), let expression = reader.parenthesized(), reader.isAtEnd {
      return .check(CheckConstraint(name: name, expression: SQLTokenizer.normalized(expression)))
    }
    reader = SQLTokenReader(tokens)
    _ = reader.word("GENERATED") && reader.word("ALWAYS")
    if reader.word("AS"), let expression = reader.parenthesized() {
      _ = reader.word("STORED") || reader.word("VIRTUAL")
      if reader.isAtEnd { return .generated(expression: SQLTokenizer.normalized(expression), storage: storage) }
    }
    return .raw(SQLTokenizer.normalized(tokens))
  }
}
