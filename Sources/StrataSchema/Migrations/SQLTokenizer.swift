/// Splits SQL into tokens, enough to read the column definitions of a `CREATE TABLE`.
struct SQLToken: Equatable {
  enum Kind: Equatable {
    /// A bare word: a keyword or an unquoted name.
    case word
    /// A quoted name: `"name"`, `` `name` `` or `[name]`; the text is the unquoted name.
    case quotedName
    case string
    case number
    case symbol
  }

  var kind: Kind
  var text: String

  /// The token's text in SQL: quoted names requoted with double quotes.
  var sql: String {
    kind == .quotedName ? SQLLiteral.identifier(text) : text
  }

  func isWord(_ word: String) -> Bool {
    kind == .word && text.uppercased() == word
  }

  var isName: Bool { kind == .word || kind == .quotedName }
}

enum SQLTokenizer {
  static func tokens(_ sql: String) -> [SQLToken] {
    let characters = Array(sql.unicodeScalars)
    var tokens: [SQLToken] = []
    var index = 0
    func scan(until close: Unicode.Scalar, doubling: Bool) -> String {
      var text = String.UnicodeScalarView()
      index += 1
      while index < characters.count {
        if characters[index] == close {
          if doubling, index + 1 < characters.count, characters[index + 1] == close {
            text.append(close)
            index += 2
            continue
          }
          index += 1
          break
        }
        text.append(characters[index])
        index += 1
      }
      return String(text)
    }
    while index < characters.count {
      let character = characters[index]
      switch character {
      case " ", "\t", "\n", "\r":
        index += 1
      case "-" where index + 1 < characters.count && characters[index + 1] == "-":
        while index < characters.count, characters[index] != "\n" { index += 1 }
      case "/" where index + 1 < characters.count && characters[index + 1] == "*":
        index += 2
        while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
        index += 2
      case "\"":
        tokens.append(SQLToken(kind: .quotedName, text: scan(until: "\"", doubling: true)))
      case "`":
        tokens.append(SQLToken(kind: .quotedName, text: scan(until: "`", doubling: true)))
      case "[":
        tokens.append(SQLToken(kind: .quotedName, text: scan(until: "]", doubling: false)))
      case "'":
        let text = scan(until: "'", doubling: true)
        tokens.append(SQLToken(kind: .string, text: SQLLiteral.string(text)))
      case "x" where index + 1 < characters.count && characters[index + 1] == "'",
        "X" where index + 1 < characters.count && characters[index + 1] == "'":
        // A blob literal is one token: `X'00FF'`, not the word X and a string.
        index += 1
        let digits = scan(until: "'", doubling: true)
        tokens.append(SQLToken(kind: .string, text: "X" + SQLLiteral.string(digits)))
      case "0"..."9", ".":
        // A `.` starts a number only before a digit; otherwise it separates names.
        guard character != "." || (index + 1 < characters.count && ("0"..."9").contains(characters[index + 1])) else {
          tokens.append(SQLToken(kind: .symbol, text: "."))
          index += 1
          continue
        }
        var text = String.UnicodeScalarView()
        while index < characters.count, isWordCharacter(characters[index]) || characters[index] == "." {
          text.append(characters[index])
          index += 1
        }
        tokens.append(SQLToken(kind: .number, text: String(text)))
      default:
        if isWordCharacter(character), !("0"..."9").contains(character) {
          var text = String.UnicodeScalarView()
          while index < characters.count, isWordCharacter(characters[index]) || characters[index] == "$" {
            text.append(characters[index])
            index += 1
          }
          tokens.append(SQLToken(kind: .word, text: String(text)))
        } else {
          // Operators of two or three characters are one token, so that normalized text keeps
          // them whole: `a >= 0`, not `a > = 0`, which SQLite would refuse.
          var symbol = String(character)
          if operatorStarts.contains(character) {
            let rest = String(String.UnicodeScalarView(characters[index..<min(index + 3, characters.count)]))
            symbol = multiCharacterOperators.first { rest.hasPrefix($0) } ?? symbol
          }
          tokens.append(SQLToken(kind: .symbol, text: symbol))
          index += symbol.unicodeScalars.count
        }
      }
    }
    return tokens
  }

  /// SQLite's operators longer than one character, longest first.
  private static let multiCharacterOperators = ["->>", "<=", ">=", "<>", "!=", "==", "||", "<<", ">>", "->"]
  private static let operatorStarts: Set<Unicode.Scalar> = ["-", "<", ">", "!", "=", "|"]

  /// Letters, digits, `_`, and anything outside ASCII (SQLite allows it in bare names).
  private static func isWordCharacter(_ character: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(character) || ("A"..."Z").contains(character) || ("0"..."9").contains(character)
      || character == "_" || character.value >= 0x80
  }

  /// Tokens joined with single spaces, without spaces inside parentheses or before commas.
  static func normalized(_ tokens: some Collection<SQLToken>) -> String {
    var text = ""
    var previous: SQLToken?
    for token in tokens {
      let glue = previous == nil || previous?.text == "(" || token.text == ")" || token.text == ","
      text += (glue ? "" : " ") + token.sql
      previous = token
    }
    return text
  }
}

/// Whitespace and comments between SQL statements.
enum SQLTrivia {
  /// The offset of the first byte at or after `offset` that is not whitespace or a comment.
  static func end(of bytes: [UInt8], from offset: Int) -> Int {
    var index = offset
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
        index += 1
      case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        index += 2
        while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
          index += 1
        }
        index = min(index + 2, bytes.count)
      default:
        return index
      }
    }
    return index
  }
}
