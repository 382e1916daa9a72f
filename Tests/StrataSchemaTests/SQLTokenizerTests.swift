import Testing

@testable import StrataSchema

/// The tokenizer the planner reads SQL with: blob literals in either case are one token, and a
/// word that starts with an x is a word.
@Suite struct SQLTokenizerTests {
  @Test func blobLiteralsInEitherCaseAndWordsStartingWithX() {
    let tokens = SQLTokenizer.tokens("SELECT x'00ff', X'AB', xpos, \"x\" FROM xs WHERE x = 'x'")
    #expect(tokens.map(\.text) == ["SELECT", "X'00ff'", ",", "X'AB'", ",", "xpos", ",", "x", "FROM", "xs", "WHERE", "x", "=", "'x'"])
    #expect(tokens.map(\.kind) == [.word, .string, .symbol, .string, .symbol, .word, .symbol, .quotedName, .word, .word, .word, .word, .symbol, .string])
  }
}
