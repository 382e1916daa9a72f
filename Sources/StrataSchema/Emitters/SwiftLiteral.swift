/// The one place where text becomes generated Swift: identifiers, string literals, comments
/// and embedded files.
enum SwiftLiteral {
  /// A string literal holding `text`, with quotes, backslashes and invisible characters escaped.
  static func string(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": literal += "\\\\"
      case "\"": literal += "\\\""
      case "\n": literal += "\\n"
      case "\r": literal += "\\r"
      case "\t": literal += "\\t"
      case "\0": literal += "\\0"
      default:
        if InvisibleCharacters.isInvisible(scalar) {
          literal += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          literal.unicodeScalars.append(scalar)
        }
      }
    }
    return literal + "\""
  }

  /// Text for a `//` comment: each invisible character is written as `\u{…}`, so that a file
  /// name cannot end the comment.
  static func comment(_ text: String) -> String {
    InvisibleCharacters.escaped(text)
  }

  /// A raw multi-line literal whose value is exactly `text`, with enough `#`s that nothing in the
  /// text can end it or interpolate. Characters that a literal cannot hold as themselves
  /// (control characters other than tabs and line breaks, invisible formatting) are written as
  /// raw escapes, `\#u{…}`.
  static func rawMultiline(_ text: String, indentation: String) -> String {
    var longestRun = 0
    var run = 0
    for character in text.unicodeScalars {
      if character == "#" {
        run += 1
        longestRun = max(longestRun, run)
      } else {
        run = 0
      }
    }
    let pounds = String(repeating: "#", count: longestRun + 1)
    var body = ""
    for scalar in text.unicodeScalars {
      if scalar != "\n", scalar != "\t", InvisibleCharacters.isInvisible(scalar) {
        body += "\\" + pounds + "u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        body.unicodeScalars.append(scalar)
      }
    }
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.isEmpty ? "" : indentation + "  " + line
    }
    return pounds + "\"\"\"\n" + lines.joined(separator: "\n") + "\n" + indentation + "  \"\"\"" + pounds
  }

  /// Words that cannot be a member's name without backticks.
  static let reserved: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break",
    "case", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
    "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false", "is", "nil",
    "super", "self", "Self", "throw", "throws", "true", "try", "package", "Type", "Protocol",
    "await", "async", "_",
  ]

  /// A name as a Swift identifier: backticked when it is a keyword or not a plain identifier.
  /// Backticks around an ordinary identifier are legal everywhere, so this never makes code
  /// invalid; names that no backticks can carry are rejected when the models are read.
  static func identifier(_ name: String) -> String {
    isPlainIdentifier(name) && !reserved.contains(name) ? name : "`\(name)`"
  }

  /// A dotted type name with each component made an identifier: `Outer.Row`.
  static func qualifiedName(_ name: String) -> String {
    name.split(separator: ".", omittingEmptySubsequences: false).map { identifier(String($0)) }
      .joined(separator: ".")
  }

  /// Letters, digits and `_`, not starting with a digit; letters beyond ASCII count.
  static func isPlainIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || scalar == "_" || (scalar.value >= 0x80 && scalar.properties.isAlphabetic)
    }
  }
}
