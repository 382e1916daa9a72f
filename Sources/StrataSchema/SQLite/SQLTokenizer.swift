import StrataSQL

/// Splits SQL into tokens, enough to read the column definitions of a `CREATE TABLE`.
struct SQLToken: Equatable {
  enum Kind: Equatable {
    /// A bare word: a keyword or an unquoted name.
    case word
    /// A quoted name: `"name"`, `` `name` `` or `[name]`; the text is the unquoted name.
    case quotedName
    case string
    case number
    case symbol
    /// A comment, when asked for.
    case comment
  }

  var kind: Kind
  var text: String
  /// Where the token is: byte offsets in the UTF-8 of the text read.
  var range: Range<Int>

  /// The token's text in SQL: quoted names requoted with double quotes.
  var sql: String {
    kind == .quotedName ? SQLQuoting.identifier(text) : text
  }

  func isWord(_ word: String) -> Bool {
    kind == .word && text.uppercased() == word
  }

  var isName: Bool { kind == .word || kind == .quotedName }
}

/// Tokens with their text, read by StrataSQL's lexer: what the schema reader compares and
/// normalizes.
enum SQLTokenizer {
  /// The tokens of `sql`; comments are left out unless `keepingComments`.
  static func tokens(_ sql: String, keepingComments: Bool = false) -> [SQLToken] {
    let lexer = SQLLexer(sql, keepingComments: keepingComments)
    return lexer.map { lexeme in
      let range = lexeme.range
      return switch lexeme.kind {
      case .quotedName: SQLToken(kind: .quotedName, text: lexer.unquoted(range), range: range)
      case .string: SQLToken(kind: .string, text: SQLQuoting.string(lexer.unquoted(range)), range: range)
      // A blob literal is one token: `X'00FF'`, not the word X and a string.
      case .blob: SQLToken(kind: .string, text: "X" + SQLQuoting.string(lexer.unquoted(range.dropFirst())), range: range)
      case .number: SQLToken(kind: .number, text: lexer.text(range), range: range)
      case .word: SQLToken(kind: .word, text: lexer.text(range), range: range)
      case .symbol: SQLToken(kind: .symbol, text: lexer.text(range), range: range)
      case .comment: SQLToken(kind: .comment, text: lexer.text(range), range: range)
      }
    }
  }

  /// Tokens joined with single spaces, without spaces inside parentheses or before commas.
  static func normalized(_ tokens: some Collection<SQLToken>) -> String {
    var text = ""
    var previous: SQLToken?
    for token in tokens {
      let glue = previous == nil || previous?.text == "(" || token.text == ")" || token.text == ","
      text += (glue ? "" : " ") + token.sql
      previous = token
    }
    return text
  }
}
