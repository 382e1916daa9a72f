/// The one place where text becomes generated SQL: names, string values and comments.
enum SQLLiteral {
  /// A double-quoted identifier, with inner double quotes doubled.
  static func identifier(_ name: String) -> String {
    quoted(name, with: "\"")
  }

  /// A single-quoted string, with inner single quotes doubled.
  static func string(_ text: String) -> String {
    quoted(text, with: "'")
  }

  /// Text for a `--` comment: a newline or other control character would end the comment and
  /// make the rest live SQL, so each invisible character is written as `\u{…}`.
  static func comment(_ text: String) -> String {
    InvisibleCharacters.escaped(text)
  }

  private static func quoted(_ text: String, with quote: Character) -> String {
    guard text.contains(quote) else { return String(quote) + text + String(quote) }
    var result = String(quote)
    for character in text {
      result.append(character)
      if character == quote { result.append(quote) }
    }
    result.append(quote)
    return result
  }
}
