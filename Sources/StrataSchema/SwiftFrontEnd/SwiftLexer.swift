/// Splits Swift source into tokens and comments.
///
/// It understands every lexical form that can hide a brace or a quote: line, block and nested
/// comments; string literals of every kind (multi-line, raw `#"…"#`, interpolation with nested
/// strings); regex literals; backticked identifiers. Malformed input (an unterminated string or
/// comment) is reported, never a crash.
struct SwiftLexer {
  let bytes: [UInt8]
  let path: String
  private(set) var tokens: [SwiftToken] = []
  private(set) var comments: [SwiftComment] = []
  private(set) var diagnostics = Diagnostics()

  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var sawNewline = true
  private var sawSpace = true
  /// How many string interpolations enclose the current position.
  private var interpolationDepth = 0
  /// Interpolations nested beyond the limit; the rest of the file is not lexed.
  private(set) var beyondLimits: [Diagnostic] = []

  /// Deeper interpolations are reported instead of lexed, so that no input can exhaust the
  /// stack.
  static let maximumInterpolationDepth = 32

  init(source: String, path: String) {
    self.bytes = Array(source.utf8)
    self.path = path
  }

  static func lex(_ source: String, path: String) -> SwiftLexer {
    var lexer = SwiftLexer(source: source, path: path)
    lexer.run()
    return lexer
  }

  func text(of token: SwiftToken) -> String {
    String(decoding: bytes[token.start..<token.end], as: UTF8.self)
  }

  private mutating func run() {
    tokens.reserveCapacity(bytes.count / 4)
    while true {
      skipTrivia()
      guard index < bytes.count else { break }
      lexToken()
    }
    tokens.append(
      SwiftToken(
        kind: .endOfFile, start: bytes.count, end: bytes.count, line: line,
        column: index - lineStart + 1, followsNewline: true, followsSpace: true))
  }

  // MARK: Trivia

  private mutating func skipTrivia() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\n"):
        index += 1
        newLine()
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
        index += 1
        sawSpace = true
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        lineComment()
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        blockComment()
      default:
        return
      }
    }
  }

  private mutating func newLine() {
    line += 1
    lineStart = index
    sawNewline = true
    sawSpace = true
  }

  private mutating func lineComment() {
    let start = index
    let column = index - lineStart + 1
    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    comments.append(
      SwiftComment(
        text: String(decoding: bytes[start..<index], as: UTF8.self), line: line, column: column,
        endLine: line, isLineComment: true))
    sawSpace = true
  }

  private mutating func blockComment() {
    let start = index
    let startLine = line
    let column = index - lineStart + 1
    var depth = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
        depth += 1
        index += 2
      } else if bytes[index] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
        depth -= 1
        index += 2
        if depth == 0 { break }
      } else {
        if bytes[index] == UInt8(ascii: "\n") {
          index += 1
          newLine()
        } else {
          index += 1
        }
      }
    }
    if depth > 0 {
      diagnostics.error(
        "unterminated block comment",
        at: SourceLocation(path: path, line: startLine, column: column))
    }
    comments.append(
      SwiftComment(
        text: String(decoding: bytes[start..<index], as: UTF8.self), line: startLine,
        column: column, endLine: line, isLineComment: false))
    sawSpace = true
  }

  // MARK: Tokens

  private mutating func lexToken() {
    let start = index
    let startLine = line
    let column = index - lineStart + 1
    let character = bytes[index]
    let kind: SwiftToken.Kind

    switch character {
    case UInt8(ascii: "\""):
      lexString(poundCount: 0)
      kind = .string
    case UInt8(ascii: "#"):
      var pounds = 0
      while peek(pounds) == UInt8(ascii: "#") { pounds += 1 }
      if peek(pounds) == UInt8(ascii: "\"") {
        index += pounds
        lexString(poundCount: pounds)
        kind = .string
      } else if peek(pounds) == UInt8(ascii: "/") {
        lexExtendedRegex(poundCount: pounds)
        kind = .regex
      } else {
        index += 1
        while index < bytes.count, isIdentifierContinue(bytes[index]) { index += 1 }
        kind = .pound
      }
    case UInt8(ascii: "`"):
      index += 1
      while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != UInt8(ascii: "\n") {
        index += 1
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "`") {
        index += 1
      } else {
        error("unterminated backticked identifier", line: startLine, column: column)
      }
      kind = .escapedIdentifier
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      kind = lexNumber()
    case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"),
      UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"),
      UInt8(ascii: ";"), UInt8(ascii: "@"), UInt8(ascii: "<"), UInt8(ascii: ">"),
      UInt8(ascii: "\\"):
      // `\` starts a key path.
      index += 1
      kind = .punctuation
    case UInt8(ascii: "."):
      if peek(1) == UInt8(ascii: ".") {
        while index < bytes.count, isOperatorCharacter(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
          index += 1
        }
        kind = .operatorSymbol
      } else {
        index += 1
        kind = .punctuation
      }
    case UInt8(ascii: "/") where startsBareRegex():
      lexBareRegex()
      kind = .regex
    default:
      if isIdentifierStart(character) {
        index += 1
        while index < bytes.count, isIdentifierContinue(bytes[index]) { index += 1 }
        kind = .identifier
      } else if isOperatorCharacter(character) {
        kind = lexOperator()
      } else {
        index += 1
        error("unexpected character", line: startLine, column: column)
        kind = .operatorSymbol
      }
    }

    tokens.append(
      SwiftToken(
        kind: kind, start: start, end: index, line: startLine, column: column,
        followsNewline: sawNewline, followsSpace: sawSpace))
    sawNewline = false
    sawSpace = false
  }

  private mutating func lexOperator() -> SwiftToken.Kind {
    let character = bytes[index]
    // `T?`, `x!`: a `?` or `!` glued to what precedes it is postfix punctuation.
    if (character == UInt8(ascii: "?") || character == UInt8(ascii: "!")) && !sawSpace {
      index += 1
      return .punctuation
    }
    if character == UInt8(ascii: "-"), peek(1) == UInt8(ascii: ">") {
      index += 2
      return .punctuation
    }
    if character == UInt8(ascii: "="), let next = peek(1), !isOperatorCharacter(next) {
      index += 1
      return .punctuation
    }
    while index < bytes.count, isOperatorCharacter(bytes[index]),
      !(bytes[index] == UInt8(ascii: "/") && (peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*")))
    {
      index += 1
    }
    return .operatorSymbol
  }

  private mutating func lexNumber() -> SwiftToken.Kind {
    var isFloat = false
    let isHex = bytes[index] == UInt8(ascii: "0") && (peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"))
    index += 1
    while index < bytes.count {
      let character = bytes[index]
      if isIdentifierContinue(character) {
        let isExponent = isHex
          ? (character == UInt8(ascii: "p") || character == UInt8(ascii: "P"))
          : (character == UInt8(ascii: "e") || character == UInt8(ascii: "E"))
        index += 1
        if isExponent {
          isFloat = true
          if peek(0) == UInt8(ascii: "+") || peek(0) == UInt8(ascii: "-") { index += 1 }
        }
      } else if character == UInt8(ascii: "."), let next = peek(1),
        next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9") || (isHex && isHexDigit(next))
      {
        isFloat = true
        index += 1
      } else {
        break
      }
    }
    return isFloat ? .float : .integer
  }

  /// Lexes a string literal from its opening quote, after any `#`s.
  private mutating func lexString(poundCount: Int) {
    let startLine = line
    let column = index - lineStart + 1 - poundCount
    let isMultiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
    index += isMultiline ? 3 : 1
    while index < bytes.count {
      let character = bytes[index]
      if character == UInt8(ascii: "\\"), hasPounds(poundCount, at: index + 1) {
        index += 1 + poundCount
        if peek(0) == UInt8(ascii: "(") {
          skipInterpolation()
        } else if index < bytes.count {
          if bytes[index] == UInt8(ascii: "\n") {
            index += 1
            newLine()
          } else {
            index += 1
          }
        }
      } else if character == UInt8(ascii: "\"") {
        if isMultiline {
          if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\""), hasPounds(poundCount, at: index + 3) {
            index += 3 + poundCount
            return
          }
          index += 1
        } else if hasPounds(poundCount, at: index + 1) {
          index += 1 + poundCount
          return
        } else {
          index += 1
        }
      } else if character == UInt8(ascii: "\n") {
        if !isMultiline { break }
        index += 1
        newLine()
      } else {
        index += 1
      }
    }
    error("unterminated string literal", line: startLine, column: column)
  }

  private func hasPounds(_ count: Int, at position: Int) -> Bool {
    guard count > 0 else { return true }
    guard position + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[position + offset] != UInt8(ascii: "#") { return false }
    return true
  }

  /// Skips `(…)` of an interpolation, with nested parentheses, strings and comments.
  private mutating func skipInterpolation() {
    guard interpolationDepth < Self.maximumInterpolationDepth else {
      beyondLimits.append(
        Diagnostic(
          .error,
          "nesting too deep: string interpolations nest more than \(Self.maximumInterpolationDepth) levels here, and Strata stops reading the file",
          at: SourceLocation(path: path, line: line, column: index - lineStart + 1)))
      index = bytes.count
      return
    }
    interpolationDepth += 1
    defer { interpolationDepth -= 1 }
    var depth = 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "("):
        depth += 1
        index += 1
      case UInt8(ascii: ")"):
        depth -= 1
        index += 1
        if depth == 0 { return }
      case UInt8(ascii: "\""):
        lexString(poundCount: 0)
      case UInt8(ascii: "#") where peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "#"):
        var pounds = 0
        while peek(pounds) == UInt8(ascii: "#") { pounds += 1 }
        if peek(pounds) == UInt8(ascii: "\"") {
          index += pounds
          lexString(poundCount: pounds)
        } else {
          index += pounds
        }
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        blockComment()
      case UInt8(ascii: "\n"):
        index += 1
        newLine()
      default:
        index += 1
      }
    }
  }

  /// A `/` starts a regex literal where an expression starts (not after a value) and when it is
  /// not followed by a space, like Swift's own rule for bare regex literals.
  private func startsBareRegex() -> Bool {
    guard let next = peek(1), next != UInt8(ascii: " "), next != UInt8(ascii: "\t"),
      next != UInt8(ascii: "\n"), next != UInt8(ascii: "=")
    else { return false }
    if let previous = tokens.last, !(sawSpace && previous.kind == .operatorSymbol) {
      switch previous.kind {
      case .identifier, .escapedIdentifier, .integer, .float, .string, .regex:
        return false
      case .punctuation:
        let character = bytes[previous.start]
        if character == UInt8(ascii: ")") || character == UInt8(ascii: "]")
          || character == UInt8(ascii: "}") || character == UInt8(ascii: ">")
          || ((character == UInt8(ascii: "?") || character == UInt8(ascii: "!")) && previous.end - previous.start == 1 && !sawSpace)
        {
          return false
        }
      default:
        break
      }
    }
    var position = index + 1
    var inClass = false
    while position < bytes.count, bytes[position] != UInt8(ascii: "\n") {
      switch bytes[position] {
      case UInt8(ascii: "\\"): position += 1
      case UInt8(ascii: "["): inClass = true
      case UInt8(ascii: "]"): inClass = false
      case UInt8(ascii: "/") where !inClass: return true
      default: break
      }
      position += 1
    }
    return false
  }

  private mutating func lexBareRegex() {
    index += 1
    var inClass = false
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "["): inClass = true; index += 1
      case UInt8(ascii: "]"): inClass = false; index += 1
      case UInt8(ascii: "/") where !inClass:
        index += 1
        return
      default: index += 1
      }
    }
  }

  private mutating func lexExtendedRegex(poundCount: Int) {
    let startLine = line
    let column = index - lineStart + 1
    index += poundCount + 1
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "/"), hasPounds(poundCount, at: index + 1) {
        index += 1 + poundCount
        return
      }
      if bytes[index] == UInt8(ascii: "\n") {
        index += 1
        newLine()
      } else {
        index += 1
      }
    }
    error("unterminated regex literal", line: startLine, column: column)
  }

  // MARK: Characters

  private func peek(_ offset: Int) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  private func isIdentifierStart(_ character: UInt8) -> Bool {
    (character >= UInt8(ascii: "a") && character <= UInt8(ascii: "z"))
      || (character >= UInt8(ascii: "A") && character <= UInt8(ascii: "Z"))
      || character == UInt8(ascii: "_") || character == UInt8(ascii: "$") || character >= 0x80
  }

  private func isIdentifierContinue(_ character: UInt8) -> Bool {
    isIdentifierStart(character) || (character >= UInt8(ascii: "0") && character <= UInt8(ascii: "9"))
  }

  private func isHexDigit(_ character: UInt8) -> Bool {
    (character >= UInt8(ascii: "0") && character <= UInt8(ascii: "9"))
      || (character >= UInt8(ascii: "a") && character <= UInt8(ascii: "f"))
      || (character >= UInt8(ascii: "A") && character <= UInt8(ascii: "F"))
  }

  private func isOperatorCharacter(_ character: UInt8) -> Bool {
    switch character {
    case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "&"),
      UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "?"):
      return true
    default:
      return false
    }
  }

  private mutating func error(_ message: String, line: Int, column: Int) {
    // After giving up on deep nesting, the literals around it are unterminated only because
    // lexing stopped.
    guard beyondLimits.isEmpty else { return }
    diagnostics.error(message, at: SourceLocation(path: path, line: line, column: column))
  }
}
