/// Characters that never reach generated files as themselves.
///
/// Control characters end comments (a newline in a `--` or `//` comment turns the rest of the
/// name into live code) and break string literals; invisible formatting characters
/// (bidirectional overrides, zero-width characters, line and paragraph separators) make a
/// reviewed file read differently from what it does. The general categories are fixed Unicode
/// data, so the answer is the same on every machine.
enum InvisibleCharacters {
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }

  /// The first invisible character of `text`, if any.
  static func first(in text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first(where: isInvisible)
  }

  /// `U+000A`, for messages.
  static func describe(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// `text` with each invisible character replaced by `\u{…}`, for comments and messages.
  static func escaped(_ text: String) -> String {
    guard first(in: text) != nil else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isInvisible(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
