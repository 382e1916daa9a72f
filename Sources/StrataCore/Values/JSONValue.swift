/// A JSON value as SQLite's JSON functions write it, read back into the column values a
/// ``QueryDecoder`` hands to decoding initializers.
///
/// SQLite writes an INTEGER without a decimal point and a REAL with one (`1.0`), so numbers
/// keep their storage class.
enum JSONValue {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  /// Parses JSON text; nil when it is not valid JSON.
  init?(parsing text: some Collection<UInt8>) {
    var reader = JSONReader(bytes: Array(text))
    guard let value = reader.value(), reader.atEnd else { return nil }
    self = value
  }

  /// Calls `body` with the value as one result column; nil for an array or object, which no
  /// column holds.
  func withColumnValue<Result>(_ body: (QueryColumnValue) -> Result?) -> Result? {
    switch self {
    case .null: return body(.null)
    case .integer(let value): return body(.integer(value))
    case .real(let value): return body(.real(value))
    case .text(let text):
      var text = text
      return text.withUTF8 { body(.text(UnsafeRawBufferPointer($0))) }
    case .array, .object: return nil
    }
  }
}

/// A recursive-descent reader of JSON text.
private struct JSONReader {
  let bytes: [UInt8]
  var index = 0

  var atEnd: Bool {
    mutating get {
      skipWhitespace()
      return index == bytes.count
    }
  }

  mutating func value() -> JSONValue? {
    skipWhitespace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "n"): return literal("null", .null)
    case UInt8(ascii: "t"): return literal("true", .integer(1))
    case UInt8(ascii: "f"): return literal("false", .integer(0))
    case UInt8(ascii: "\""): return string().map(JSONValue.text)
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "{"): return object()
    default: return number()
    }
  }

  private mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
    let utf8 = Array(word.utf8)
    guard bytes[index...].starts(with: utf8) else { return nil }
    index += utf8.count
    return value
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func array() -> JSONValue? {
    index += 1
    var elements: [JSONValue] = []
    if consume(UInt8(ascii: "]")) { return .array(elements) }
    repeat {
      guard let element = value() else { return nil }
      elements.append(element)
    } while consume(UInt8(ascii: ","))
    return consume(UInt8(ascii: "]")) ? .array(elements) : nil
  }

  private mutating func object() -> JSONValue? {
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    if consume(UInt8(ascii: "}")) { return .object(members) }
    repeat {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string(),
        consume(UInt8(ascii: ":")), let member = value()
      else { return nil }
      members.append((key, member))
    } while consume(UInt8(ascii: ","))
    return consume(UInt8(ascii: "}")) ? .object(members) : nil
  }

  private mutating func number() -> JSONValue? {
    let start = index
    var isReal = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        isReal = true
      } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || (0x30...0x39).contains(byte)) {
        break
      }
      index += 1
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if !isReal, let integer = Int64(text) { return .integer(integer) }
    return Double(text).map(JSONValue.real)
  }

  /// A string literal, its escapes resolved (`\uXXXX` surrogate pairs included).
  private mutating func string() -> String? {
    index += 1
    var chunkStart = index
    var result = ""
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        result += String(decoding: bytes[chunkStart..<index], as: UTF8.self)
        index += 1
        return result
      }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      result += String(decoding: bytes[chunkStart..<index], as: UTF8.self)
      index += 1
      guard index < bytes.count else { return nil }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): result += "\""
      case UInt8(ascii: "\\"): result += "\\"
      case UInt8(ascii: "/"): result += "/"
      case UInt8(ascii: "b"): result += "\u{8}"
      case UInt8(ascii: "f"): result += "\u{C}"
      case UInt8(ascii: "n"): result += "\n"
      case UInt8(ascii: "r"): result += "\r"
      case UInt8(ascii: "t"): result += "\t"
      case UInt8(ascii: "u"):
        guard var code = hex4() else { return nil }
        if (0xD800..<0xDC00).contains(code), bytes[index...].starts(with: Array("\\u".utf8)) {
          index += 2
          guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { return nil }
        result.unicodeScalars.append(scalar)
      default: return nil
      }
      chunkStart = index
    }
    return nil
  }

  private mutating func hex4() -> UInt32? {
    guard index + 4 <= bytes.count,
      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { return nil }
    index += 4
    return code
  }
}
