import StrataSQL

/// Reads SQL tokens from the front, for recognizing a few fixed forms: a constraint, a
/// `CREATE` statement's head.
struct SQLTokenReader {
  var tokens: ArraySlice<SQLToken>

  init(_ tokens: ArraySlice<SQLToken>) { self.tokens = tokens }

  var isAtEnd: Bool { tokens.isEmpty }

  mutating func next() -> SQLToken? { tokens.popFirst() }

  /// Consumes `word` (uppercase) when it comes next.
  mutating func word(_ word: String) -> Bool {
    guard tokens.first?.isWord(word) == true else { return false }
    tokens.removeFirst()
    return true
  }

  /// Whether the next token is the symbol `symbol`.
  func peek(is symbol: String) -> Bool {
    tokens.first.map { $0.kind == .symbol && $0.text == symbol } ?? false
  }

  /// A bare or quoted name, unquoted; nil when a `.` follows (a schema name).
  mutating func name() -> String? {
    guard let token = tokens.first, token.isName else { return nil }
    tokens.removeFirst()
    return peek(is: ".") ? nil : token.text
  }

  /// `CONSTRAINT name`, if it comes next.
  mutating func constraintName() -> String? {
    guard word("CONSTRAINT") else { return nil }
    return name()
  }

  /// The tokens inside the parentheses that come next, consumed through the closing one.
  mutating func parenthesized() -> ArraySlice<SQLToken>? {
    guard tokens.first?.text == "(" else { return nil }
    var depth = 0
    for index in tokens.indices {
      if tokens[index].text == "(" { depth += 1 }
      if tokens[index].text == ")" {
        depth -= 1
        if depth == 0 {
          let inner = tokens[(tokens.startIndex + 1)..<index]
          tokens = tokens[(index + 1)...]
          return inner
        }
      }
    }
    return nil
  }

  /// `(a, b)`: names only, or nil.
  mutating func nameList() -> [String]? {
    guard let inner = parenthesized() else { return nil }
    var names: [String] = []
    for (offset, token) in inner.enumerated() {
      if offset % 2 == 0 {
        guard token.isName else { return nil }
        names.append(token.text)
      } else if token.text != "," {
        return nil
      }
    }
    return names.isEmpty || inner.count % 2 == 0 ? nil : names
  }

  /// `ON CONFLICT resolution`, if it comes next.
  mutating func conflictClause() -> ConflictResolution? {
    let clause = Array(tokens.prefix(3))
    guard clause.count == 3, clause[0].isWord("ON"), clause[1].isWord("CONFLICT"),
      let resolution = ConflictResolution(rawValue: clause[2].text.uppercased())
    else { return nil }
    tokens.removeFirst(3)
    return resolution
  }

  /// A foreign key action: `CASCADE`, `SET NULL`, `NO ACTION`, ….
  mutating func action() -> ReferentialAction? {
    guard let first = tokens.first, first.kind == .word else { return nil }
    if let action = ReferentialAction(rawValue: first.text.uppercased()) {
      tokens.removeFirst()
      return action
    }
    guard let second = tokens.dropFirst().first, second.kind == .word,
      let action = ReferentialAction(rawValue: first.text.uppercased() + " " + second.text.uppercased())
    else { return nil }
    tokens.removeFirst(2)
    return action
  }
}
