import StrataSQL

/// Text in generated SQL: names and string values as StrataSQL quotes them, and comments.
enum SQLLiteral {
  /// A double-quoted identifier, with inner double quotes doubled.
  static func identifier(_ name: String) -> String {
    SQLQuoting.identifier(name)
  }

  /// A single-quoted string, with inner single quotes doubled.
  static func string(_ text: String) -> String {
    SQLQuoting.string(text)
  }

  /// Text for a `--` comment: a newline or other control character would end the comment and
  /// make the rest live SQL, so each invisible character is written as `\u{…}`.
  static func comment(_ text: String) -> String {
    InvisibleCharacters.escaped(text)
  }
}
