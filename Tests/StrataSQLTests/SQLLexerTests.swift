import Testing

@testable import StrataSQL

/// Strata's one SQL lexer, which every reader of SQL uses: kinds and exact ranges, the way SQLite
/// reads quotes, comments and operators.
@Suite struct SQLLexerTests {
  /// Each lexeme as its kind and text.
  func lex(_ sql: String, keepingComments: Bool = false) -> [String] {
    let lexer = SQLLexer(sql, keepingComments: keepingComments)
    return lexer.map { "\($0.kind) \(lexer.text($0.range))" }
  }

  @Test func wordsNamesStringsNumbersAndOperators() {
    #expect(
      lex(#"SELECT "a ""b""", `c`, [d e], 'it''s', x'00ff', X'AB', xpos, 1.5e3, .5, $1 FROM t WHERE a >= 0 AND b->>'$.k' <> 2 || é"#)
        == [
          "word SELECT", #"quotedName "a ""b""""#, "symbol ,", "quotedName `c`", "symbol ,", "quotedName [d e]", "symbol ,",
          "string 'it''s'", "symbol ,", "blob x'00ff'", "symbol ,", "blob X'AB'", "symbol ,", "word xpos", "symbol ,",
          "number 1.5e3", "symbol ,", "number .5", "symbol ,", "symbol $", "number 1", "word FROM", "word t", "word WHERE", "word a",
          "symbol >=", "number 0", "word AND", "word b", "symbol ->>", "string '$.k'", "symbol <>", "number 2", "symbol ||", "word é",
        ])
  }

  @Test func commentsAreSkippedOrKept() {
    let sql = "CREATE -- a ; comment\nTABLE /* ; */ t (a);"
    #expect(lex(sql) == ["word CREATE", "word TABLE", "word t", "symbol (", "word a", "symbol )", "symbol ;"])
    #expect(
      lex(sql, keepingComments: true) == [
        "word CREATE", "comment -- a ; comment", "word TABLE", "comment /* ; */", "word t", "symbol (", "word a", "symbol )", "symbol ;",
      ])
    #expect(SQLLexer.endOfTrivia(in: Array("  -- x\n /* y */ SELECT".utf8), from: 0) == 16)
    #expect(SQLLexer.endOfTrivia(in: Array("  -- only a comment".utf8), from: 0) == 19)
  }

  /// Unclosed quotes and comments run to the end, as SQLite reads them; nothing traps or loops.
  @Test func unclosedQuotesRunToTheEnd() {
    #expect(lex("SELECT 'abc") == ["word SELECT", "string 'abc"])
    #expect(lex(#"SELECT "a"""#) == ["word SELECT", #"quotedName "a"""#])
    #expect(lex("SELECT /* open") == ["word SELECT"])
    #expect(lex("SELECT [a") == ["word SELECT", "quotedName [a"])
  }

  @Test func quotedContentHasItsQuotesUndoubled() {
    let lexer = SQLLexer(#""a ""b""" 'it''s' [x""y] x'0A' "open"#)
    #expect(lexer.map { lexer.unquoted($0.kind == .blob ? $0.range.dropFirst() : $0.range) } == [#"a "b""#, "it's", #"x""y"#, "0A", "open"])
  }

  @Test func quotingDoublesTheQuote() {
    #expect(SQLQuoting.identifier(#"my "table""#) == #""my ""table""""#)
    #expect(SQLQuoting.string("it's") == "'it''s'")
    #expect(SQLQuoting.identifier("plain") == #""plain""#)
  }
}
