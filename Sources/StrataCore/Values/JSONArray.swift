// The results of SQLite's JSON functions, decoded through the element type's own decoding: an
// array of values (`[String]`, `[Date]`), or of whole rows written as JSON objects of their
// columns (`[Player]`). Values are read as SQLite wrote them, so every storable type works,
// dates and UUIDs included; a table with a BLOB column cannot be aggregated, as JSON holds no
// blobs.

/// A JSON array, read as an array of `Element`s: what `jsonGroupArray()` selects.
public struct JSONArray<Element: QueryRepresentable>: QueryRepresentable, JSONTextRepresentable {
  public typealias QueryOutput = [Element.QueryOutput]

  public var queryOutput: [Element.QueryOutput]

  public init(queryOutput: [Element.QueryOutput]) {
    self.queryOutput = queryOutput
  }

  public init(decoder: inout some QueryDecoder) throws {
    queryOutput = try decoder.decode(Self.self) { column in
      guard case .text(let text) = column, case .array(let elements)? = JSONValue(parsing: text) else {
        return nil
      }
      return try? elements.map { try JSONColumnsDecoder.decode(Element.self, from: $0) }
    }
  }
}

/// A JSON object of a row's columns, read as the row: what `jsonObject()` selects.
public struct JSONObject<Row: QueryRepresentable>: QueryRepresentable, JSONTextRepresentable {
  public typealias QueryOutput = Row.QueryOutput

  public var queryOutput: Row.QueryOutput

  public init(queryOutput: Row.QueryOutput) {
    self.queryOutput = queryOutput
  }

  public init(decoder: inout some QueryDecoder) throws {
    queryOutput = try decoder.decode(Self.self) { column in
      guard case .text(let text) = column, let object = JSONValue(parsing: text) else { return nil }
      return try? JSONColumnsDecoder.decode(Row.self, from: object)
    }
  }
}

/// A type stored as JSON text, which SQLite's JSON functions can read.
public protocol JSONTextRepresentable: QueryRepresentable {}

extension JSONRepresentation: JSONTextRepresentable {}

/// Reads the columns of one JSON value: the value itself for a single-column type, or the
/// members of an object (or elements of an array) in order for a row.
struct JSONColumnsDecoder: QueryDecoder {
  struct Mismatch: Error {}

  let columns: [JSONValue]
  var index = 0

  static func decode<Value: QueryRepresentable>(_ type: Value.Type, from value: JSONValue) throws -> Value.QueryOutput {
    var decoder: JSONColumnsDecoder
    switch value {
    case .object(let members) where Value.queryColumnCount > 1 || Value.self is any Table.Type:
      decoder = JSONColumnsDecoder(columns: members.map(\.value))
    case .array(let elements) where Value.queryColumnCount > 1:
      decoder = JSONColumnsDecoder(columns: elements)
    default:
      decoder = JSONColumnsDecoder(columns: [value])
    }
    return try decoder.decode(Value.self)
  }

  mutating func decode<Value>(_ expected: Any.Type, as convert: (QueryColumnValue) -> Value?) throws -> Value {
    guard index < columns.count, let value = columns[index].withColumnValue(convert) else { throw Mismatch() }
    index += 1
    return value
  }

  mutating func decodeNulls(count: Int) -> Bool {
    guard index + count <= columns.count,
      columns[index..<index + count].allSatisfy({ if case .null = $0 { true } else { false } })
    else { return false }
    index += count
    return true
  }
}
