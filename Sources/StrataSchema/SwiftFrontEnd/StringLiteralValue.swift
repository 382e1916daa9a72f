/// The value of a Swift string literal's source text: single-line, multi-line and raw forms,
/// with escapes resolved. Returns nil for an interpolated literal, whose value is only known at
/// run time.
enum StringLiteralValue {
  static func value(of literal: String) -> String? {
    var scalars = Array(literal.unicodeScalars)
    var pounds = 0
    while pounds < scalars.count, scalars[pounds] == "#" { pounds += 1 }
    scalars = Array(scalars[pounds..<(scalars.count - pounds)])
    let isMultiline = scalars.starts(with: ["\"", "\"", "\""])
    let quoteLength = isMultiline ? 3 : 1
    guard scalars.count >= 2 * quoteLength else { return nil }
    var body = Array(scalars[quoteLength..<(scalars.count - quoteLength)])
    if isMultiline {
      guard let stripped = stripIndentation(body) else { return nil }
      body = stripped
    }
    var result = String.UnicodeScalarView()
    var index = 0
    while index < body.count {
      let scalar = body[index]
      guard scalar == "\\", hasPounds(pounds, in: body, at: index + 1) else {
        result.append(scalar)
        index += 1
        continue
      }
      index += 1 + pounds
      guard index < body.count else { return nil }
      switch body[index] {
      case "n": result.append("\n")
      case "t": result.append("\t")
      case "r": result.append("\r")
      case "0": result.append("\0")
      case "\\": result.append("\\")
      case "\"": result.append("\"")
      case "'": result.append("'")
      case "\n":
        // A line continuation in a multi-line literal.
        break
      case "u":
        guard index + 1 < body.count, body[index + 1] == "{",
          let close = body[(index + 2)...].firstIndex(of: "}"),
          let code = UInt32(String(String.UnicodeScalarView(body[(index + 2)..<close])), radix: 16),
          let decoded = Unicode.Scalar(code)
        else { return nil }
        result.append(decoded)
        index = close
      default:
        // `\(…)`: interpolation.
        return nil
      }
      index += 1
    }
    return String(result)
  }

  private static func hasPounds(_ count: Int, in body: [Unicode.Scalar], at index: Int) -> Bool {
    guard index + count <= body.count else { return false }
    return body[index..<(index + count)].allSatisfy { $0 == "#" }
  }

  /// Drops the newline after the opening quotes and the one before the closing quotes, and the
  /// closing line's indentation from every line.
  private static func stripIndentation(_ body: [Unicode.Scalar]) -> [Unicode.Scalar]? {
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    guard lines.count >= 2, lines[0].allSatisfy({ $0 == " " || $0 == "\t" }),
      let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" })
    else { return nil }
    let indentation = last
    var result: [Unicode.Scalar] = []
    for (offset, line) in lines.dropFirst().dropLast().enumerated() {
      if offset > 0 { result.append("\n") }
      if line.starts(with: indentation) {
        result += line.dropFirst(indentation.count)
      } else if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
        continue
      } else {
        return nil
      }
    }
    return result
  }
}
