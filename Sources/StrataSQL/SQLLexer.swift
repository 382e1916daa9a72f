/// Strata's one SQL lexer: splits SQLite's SQL into lexemes, as byte ranges of its UTF-8, the way
/// SQLite reads quotes, comments and words.
///
/// Everything that reads SQL goes through it: splitting a migration into statements, reading a
/// `CREATE TABLE`'s constraints, finding what a view or a trigger names, and the fast schema
/// replay. It never allocates per lexeme, so the planner can lex thousands of statements.
package struct SQLLexer: Sequence, IteratorProtocol {
  /// What a lexeme is.
  package enum Kind: Equatable, Sendable {
    /// A bare word: a keyword or an unquoted name.
    case word
    /// A quoted name: `"name"`, `` `name` `` or `[name]`.
    case quotedName
    /// A string literal, `'text'`.
    case string
    /// A blob literal, `X'00FF'` in either case.
    case blob
    case number
    /// An operator or punctuation; operators of two or three characters are one lexeme.
    case symbol
    /// A `--` or `/* */` comment, when the lexer is asked to keep them.
    case comment
  }

  /// A lexeme: its kind and where it is.
  package struct Lexeme: Equatable, Sendable {
    package var kind: Kind
    /// The byte offsets in the UTF-8 of the lexed text, quotes included.
    package var range: Range<Int>
  }

  package let bytes: [UInt8]
  private var index = 0
  private let keepsComments: Bool

  /// A lexer over `text`; comments are skipped like spaces unless `keepingComments`.
  package init(_ text: String, keepingComments: Bool = false) {
    self.init(bytes: Array(text.utf8), keepingComments: keepingComments)
  }

  package init(bytes: [UInt8], from offset: Int = 0, keepingComments: Bool = false) {
    self.bytes = bytes
    self.index = offset
    self.keepsComments = keepingComments
  }

  /// The text of a range of the lexed bytes.
  package func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The offset of the first byte at or after `offset` that is not a space or a comment.
  package static func endOfTrivia(in bytes: [UInt8], from offset: Int) -> Int {
    var lexer = SQLLexer(bytes: bytes, from: offset)
    return lexer.next()?.range.lowerBound ?? bytes.count
  }

  package mutating func next() -> Lexeme? {
    while index < bytes.count {
      let start = index
      let byte = bytes[index]
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
        index += 1
        continue
      case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        if keepsComments { return Lexeme(kind: .comment, range: start..<index) }
        continue
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        index += 2
        while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
          index += 1
        }
        index = Swift.min(index + 2, bytes.count)
        if keepsComments { return Lexeme(kind: .comment, range: start..<index) }
        continue
      case UInt8(ascii: "\""), UInt8(ascii: "`"):
        skipQuoted(until: byte, doubling: true)
        return Lexeme(kind: .quotedName, range: start..<index)
      case UInt8(ascii: "["):
        skipQuoted(until: UInt8(ascii: "]"), doubling: false)
        return Lexeme(kind: .quotedName, range: start..<index)
      case UInt8(ascii: "'"):
        skipQuoted(until: byte, doubling: true)
        return Lexeme(kind: .string, range: start..<index)
      case UInt8(ascii: "x"), UInt8(ascii: "X"):
        guard peek(1) == UInt8(ascii: "'") else { fallthrough }
        index += 1
        skipQuoted(until: UInt8(ascii: "'"), doubling: true)
        return Lexeme(kind: .blob, range: start..<index)
      default:
        if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && peek(1).map(Self.isDigit) == true) {
          while index < bytes.count, Self.isWordByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") { index += 1 }
          return Lexeme(kind: .number, range: start..<index)
        }
        if Self.isWordByte(byte), byte != UInt8(ascii: "$") {
          while index < bytes.count, Self.isWordByte(bytes[index]) { index += 1 }
          return Lexeme(kind: .word, range: start..<index)
        }
        index += Self.operatorLength(bytes, at: index)
        return Lexeme(kind: .symbol, range: start..<index)
      }
    }
    return nil
  }

  private func peek(_ offset: Int) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  /// Moves past a quoted lexeme that starts at `index`; an unclosed one runs to the end.
  private mutating func skipQuoted(until close: UInt8, doubling: Bool) {
    index += 1
    while index < bytes.count {
      if bytes[index] == close {
        if doubling, peek(1) == close {
          index += 2
          continue
        }
        index += 1
        return
      }
      index += 1
    }
  }

  /// SQLite's operators longer than one character, longest first, so that `a >= 0` stays whole.
  private static let operators: [[UInt8]] = ["->>", "<=", ">=", "<>", "!=", "==", "||", "<<", ">>", "->"].map { Array($0.utf8) }

  private static func operatorLength(_ bytes: [UInt8], at index: Int) -> Int {
    for candidate in operators where bytes[index...].starts(with: candidate) { return candidate.count }
    // A character outside ASCII is never a word here (word bytes include them), so one byte.
    return 1
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Letters, digits, `_`, `$` and anything outside ASCII, which SQLite allows in bare names.
  package static func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
  }
}

extension SQLLexer {
  /// The content of a quoted lexeme (a name, a string, or a blob after its `X`), with doubled
  /// quotes made single; an unclosed one runs to the end of its range.
  package func unquoted(_ range: Range<Int>) -> String {
    guard let open = range.first.map({ bytes[$0] }) else { return "" }
    let close = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : open
    var content: [UInt8] = []
    var index = range.lowerBound + 1
    while index < range.upperBound {
      if bytes[index] == close {
        if close != UInt8(ascii: "]"), index + 1 < range.upperBound, bytes[index + 1] == close {
          content.append(close)
          index += 2
          continue
        }
        break
      }
      content.append(bytes[index])
      index += 1
    }
    return String(decoding: content, as: UTF8.self)
  }
}
