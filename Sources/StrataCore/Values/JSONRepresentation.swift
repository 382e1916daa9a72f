import Foundation

/// Stores a `Codable` value as JSON TEXT.
///
/// Use it as a column's representation when the property's type has no storage of its own:
///
/// ```swift
/// struct Reminder: Table {
///   let id: UUID
///   // @Column(as: JSONRepresentation<[String]>.self)
///   var tags: [String] = []
/// }
/// ```
///
/// Keys are sorted so that equal values produce equal text. A value that fails to encode is
/// stored as NULL (and fails a `NOT NULL` constraint with SQLite's error); text that fails to
/// decode is a ``QueryDecodingError``.
public struct JSONRepresentation<Value: Codable>: QueryBindable {
  public var queryOutput: Value

  public init(queryOutput: Value) {
    self.queryOutput = queryOutput
  }

  public var queryBinding: QueryBinding {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(queryOutput) else { return .null }
    return .json(String(decoding: data, as: UTF8.self))
  }

  public init(decoder: inout some QueryDecoder) throws {
    queryOutput = try decoder.decode(Value.self) { column in
      guard case .text(let text) = column else { return nil }
      return try? JSONDecoder().decode(Value.self, from: Data(text))
    }
  }
}

extension JSONRepresentation: Equatable where Value: Equatable {}
extension JSONRepresentation: Hashable where Value: Hashable {}
extension JSONRepresentation: Sendable where Value: Sendable {}
