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
    var otherConstraints: [String] = []
  }

  var columns: [String: ColumnDetails] = [:]
  var tableConstraints: [String] = []

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
        // Keys and single-column foreign keys come from the pragmas; keep the rest as text,
        // foreign keys on several columns included.
        if first.isWord("PRIMARY") { continue }
        if first.isWord("FOREIGN"), Self.firstListCount(item) < 2 { continue }
        tableConstraints.append(SQLTokenizer.normalized(item))
      } else if item[0].isName {
        columns[item[0].text] = Self.details(item.dropFirst())
      }
    }
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
        details.collation = Collation(name: name.text)
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
        while let next = word(at: 0), next.isWord("STORED") || next.isWord("VIRTUAL") { index += 1 }
        details.otherConstraints.append(SQLTokenizer.normalized(tokens[start..<index]))
      } else if token.isWord("CONSTRAINT") {
        index += 2
      } else {
        // The type name and its size, such as `VARCHAR(10)`.
        index += 1
        if word(at: 0)?.text == "(" { skipParenthesized() }
      }
    }
    return details
  }
}
