/// SQL a model gives as text, in the annotations whose names say `raw` (`@Check(raw:)`,
/// `@Default(raw:)`, `@Index(on:whereRaw:)`) and their schema-file forms. It reaches the
/// migration as written, so it must be one expression and nothing more: no `;` that would end
/// the statement, no comment that would hide the rest of the line, balanced parentheses and
/// closed quotes. SQLite then checks the expression itself when the planner builds the models'
/// schema.
enum RawSQLFragment {
  /// Why `text` cannot be given to SQL as an expression, or nil when it can.
  ///
  /// - Parameter allowingStatements: Whether `;` may end statements inside the text, as in a
  ///   trigger's body; the planner then checks that the whole is one statement.
  static func problem(_ text: String, allowingStatements: Bool = false) -> String? {
    if text.allSatisfy(\.isWhitespace) { return "is empty" }
    if let scalar = InvisibleCharacters.first(in: text) {
      return "contains \(InvisibleCharacters.describe(scalar)), a control or invisible character"
    }
    let scalars = Array(text.unicodeScalars)
    var depth = 0
    var index = 0
    let closing: [Unicode.Scalar: Unicode.Scalar] = ["'": "'", "\"": "\"", "`": "`", "[": "]"]
    while index < scalars.count {
      let scalar = scalars[index]
      if let close = closing[scalar] {
        index += 1
        while index < scalars.count, scalars[index] != close { index += 1 }
        guard index < scalars.count else { return "has a quote that is not closed" }
      } else if scalar == ";", !allowingStatements {
        return "contains ';', which would end the statement; give one expression"
      } else if (scalar == "-" || scalar == "/"), index + 1 < scalars.count, scalars[index + 1] == (scalar == "-" ? "-" : "*") {
        return "contains a comment, which would hide the rest of the statement"
      } else if scalar == "(" {
        depth += 1
      } else if scalar == ")" {
        depth -= 1
        if depth < 0 { return "closes a parenthesis it did not open" }
      }
      index += 1
    }
    return depth == 0 ? nil : "leaves a parenthesis open"
  }
}
