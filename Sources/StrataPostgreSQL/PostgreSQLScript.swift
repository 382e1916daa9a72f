#if PostgreSQL
/// SQL text of several statements, as a migration file holds them, split the way PostgreSQL
/// reads it: at semicolons outside quotes (`'…'`, `E'…'`, `"…"`, `$tag$…$tag$`) and comments
/// (`--`, nested `/* */`).
///
/// postgres-nio sends each statement on its own (its protocol prepares one at a time), so a
/// migration runs statement by statement, in its transaction.
struct PostgreSQLScript {
  /// A statement, and the line of the script it starts on.
  struct Statement: Equatable {
    var sql: String
    var line: Int
  }

  let statements: [Statement]

  /// A statement of a script that failed.
  struct Failure: Error {
    var line: Int
    var error: PostgreSQLError
  }

  init(_ text: String) {
    let bytes = Array(text.utf8)
    var statements: [Statement] = []
    var start = 0
    var index = 0
    var line = 1
    var startLine = 1
    var hasContent = false

    func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
    func isWordByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || (byte >= 0x80) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
    /// Moves past `count` bytes, counting lines.
    func advance(_ count: Int) {
      for offset in index..<min(index + count, bytes.count) where bytes[offset] == UInt8(ascii: "\n") { line += 1 }
      index = min(index + count, bytes.count)
    }
    func finish(at end: Int) {
      if hasContent {
        let sql = String(decoding: bytes[start..<end], as: UTF8.self).trimmingSpaces
        statements.append(Statement(sql: sql, line: startLine))
      }
      hasContent = false
    }

    while index < bytes.count {
      let byte = bytes[index]
      if !hasContent, byte != UInt8(ascii: ";") {
        if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
          advance(1)
          start = index
          continue
        }
        if byte == UInt8(ascii: "-"), at(index + 1) == UInt8(ascii: "-") {
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
          start = index
          continue
        }
        if !(byte == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "*")) {
          hasContent = true
          startLine = line
        }
      }
      switch byte {
      case UInt8(ascii: ";"):
        finish(at: index)
        advance(1)
        start = index
      case UInt8(ascii: "-") where at(index + 1) == UInt8(ascii: "-"):
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "*"):
        var depth = 0
        repeat {
          if bytes[index] == UInt8(ascii: "/"), at(index + 1) == UInt8(ascii: "*") {
            depth += 1
            advance(2)
          } else if bytes[index] == UInt8(ascii: "*"), at(index + 1) == UInt8(ascii: "/") {
            depth -= 1
            advance(2)
          } else {
            advance(1)
          }
        } while depth > 0 && index < bytes.count
        if !hasContent { start = index }
      case UInt8(ascii: "'"), UInt8(ascii: "\""):
        // `E'…'` lets a backslash escape the next character.
        let escapes = byte == UInt8(ascii: "'") && index > 0 && bytes[index - 1] | 0x20 == UInt8(ascii: "e")
          && (index < 2 || !isWordByte(bytes[index - 2]))
        advance(1)
        while index < bytes.count {
          if escapes, bytes[index] == UInt8(ascii: "\\") {
            advance(2)
          } else if bytes[index] == byte {
            advance(1)
            // A doubled quote is one quote character.
            if at(index) == byte { advance(1) } else { break }
          } else {
            advance(1)
          }
        }
      case UInt8(ascii: "$") where !(index > 0 && isWordByte(bytes[index - 1])):
        // `$tag$…$tag$`; `$1` is a parameter, not a quote.
        var end = index + 1
        while end < bytes.count, isWordByte(bytes[end]), !(end == index + 1 && bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9")) {
          end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "$") else {
          advance(1)
          break
        }
        let tag = Array(bytes[index...end])
        advance(tag.count)
        while index < bytes.count, !bytes[index...].starts(with: tag) { advance(1) }
        advance(tag.count)
      default:
        advance(1)
      }
    }
    finish(at: bytes.count)
    self.statements = statements
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }
}
#endif
