/// How a Swift type is stored, following the runtime's value rules.
enum StorageType {
  /// What columns of the Swift types the runtime stores hold.
  static let builtIn: [String: ColumnValueType] = [
    "Int": .integer, "Int8": .integer, "Int16": .integer, "Int32": .integer, "Int64": .integer,
    "UInt8": .integer, "UInt16": .integer, "UInt32": .integer, "Bool": .boolean,
    "Double": .real, "Float": .real,
    "String": .text, "UUID": .uuid, "Date": .date,
    "Data": .blob, "StoredValue": .any,
    "Foundation.UUID": .uuid, "Foundation.Date": .date, "Foundation.Data": .blob, "Strata.StoredValue": .any,
    "Swift.Int": .integer, "Swift.String": .text, "Swift.Bool": .boolean, "Swift.Double": .real,
  ]

  /// The built-in representations for `@Column(as:)`, by the name of their generic type.
  static let representations: [String: ColumnValueType] = [
    "JSONRepresentation": .json,
    "Date.UnixTimeRepresentation": .integer,
    "UUID.BytesRepresentation": .blob,
  ]

  static let representationList = "JSONRepresentation<T>, Date.UnixTimeRepresentation, UUID.BytesRepresentation"

  /// What a selection's field may also be read through, without being written: the JSON that
  /// `jsonGroupArray()` and `jsonObject()` select, decoded through the rows' own decoding.
  static let readOnlyRepresentations: Set<String> = ["JSONArray", "JSONObject"]

  /// Whether `type` is one of ``readOnlyRepresentations``.
  static func isReadOnlyRepresentation(_ type: TypeSyntax) -> Bool {
    guard case .named(let components) = type else { return false }
    var names = components.map(\.name)
    if let first = names.first, StrataModules.names.contains(first) { names.removeFirst() }
    return names.count == 1 && readOnlyRepresentations.contains(names[0])
  }

  /// The storage of a representation type, or nil if it is not one the generator knows.
  static func representationStorage(_ type: TypeSyntax) -> ColumnValueType? {
    guard case .named(let components) = type else { return nil }
    var names = components.map(\.name)
    if let first = names.first, StrataModules.names.contains(first) { names.removeFirst() }
    return representations[names.joined(separator: ".")]
  }

  /// Raw value types of enums stored by their raw value.
  static let rawValueTypes: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "String", "Double",
    "Float", "Bool",
  ]
}
