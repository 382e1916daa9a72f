/// SQL spellings of names and values.
enum SQLLiteral {
  /// A double-quoted identifier, with inner double quotes doubled.
  static func identifier(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
  }

  /// A single-quoted string, with inner single quotes doubled.
  static func string(_ text: String) -> String {
    "'" + text.replacing("'", with: "''") + "'"
  }
}
