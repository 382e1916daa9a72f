import StrataSQL

/// Comments in generated SQL. Names and string values are quoted by StrataSQL's `SQLQuoting`.
enum SQLLiteral {
  /// Text for a `--` comment: a newline or other control character would end the comment and
  /// make the rest live SQL, so each invisible character is written as `\u{…}`.
  static func comment(_ text: String) -> String {
    InvisibleCharacters.escaped(text)
  }
}
