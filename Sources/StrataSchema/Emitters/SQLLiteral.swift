/// SQL spellings of names and values.
enum SQLLiteral {
  /// A double-quoted identifier, with inner double quotes doubled.
  static func identifier(_ name: String) -> String {
    quoted(name, with: "\"")
  }

  /// A single-quoted string, with inner single quotes doubled.
  static func string(_ text: String) -> String {
    quoted(text, with: "'")
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
