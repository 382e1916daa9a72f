/// FTS5 query patterns built from plain text, so that what a user types is searched for as
/// words: FTS5 reads `AND`, `OR`, `NOT`, `NEAR`, quotes, `*`, `^`, `:` and parentheses in a
/// pattern as its syntax, and a malformed pattern is an error.
///
/// ```swift
/// FullTextQuery.allTerms(in: #"swift "6" conc"#, lastIsPrefix: true)
/// // "swift" "6" "conc"*   (rows with all three, the last as a prefix)
/// ```
public enum FullTextQuery {
  /// A pattern that matches rows containing every word of `text`, in any order: each word
  /// quoted as a string, so that nothing in it is an operator. With `lastIsPrefix`, the last word
  /// also matches longer words it starts (search as the user types). Empty text gives a pattern
  /// that matches nothing.
  public static func allTerms(in text: String, lastIsPrefix: Bool = false) -> String {
    let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{0}" })
    guard !words.isEmpty else { return "\"\"" }
    return words.map { phrase(String($0)) }.joined(separator: " ") + (lastIsPrefix ? "*" : "")
  }

  /// `text` as one FTS5 string: in double quotes, with each double quote doubled. FTS5 splits it
  /// into tokens that must appear in order (a phrase).
  public static func phrase(_ text: String) -> String {
    "\"" + withoutNUL(text).replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `text` with each NUL character a space: FTS5 reads a pattern as a C string, which a NUL
  /// ends, so that one in a word would leave its quote unterminated (an error a user's text
  /// could choose); no tokenizer keeps a NUL in a word, so as a separator it finds the same rows.
  static func withoutNUL(_ text: String) -> String {
    text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: " ") : text
  }
}
