/// How a Swift type is stored, following the runtime's value rules.
enum StorageType {
  /// SQLite column types of the Swift types the runtime stores.
  static let builtIn: [String: String] = [
    "Int": "INTEGER", "Int8": "INTEGER", "Int16": "INTEGER", "Int32": "INTEGER", "Int64": "INTEGER",
    "UInt8": "INTEGER", "UInt16": "INTEGER", "UInt32": "INTEGER", "Bool": "INTEGER",
    "Double": "REAL", "Float": "REAL",
    "String": "TEXT", "UUID": "TEXT", "Date": "TEXT",
    "Data": "BLOB",
    "Foundation.UUID": "TEXT", "Foundation.Date": "TEXT", "Foundation.Data": "BLOB",
    "Swift.Int": "INTEGER", "Swift.String": "TEXT", "Swift.Bool": "INTEGER", "Swift.Double": "REAL",
  ]

  /// The built-in representations for `@Column(as:)`, by the name of their generic type.
  static let representations: [String: String] = [
    "JSONRepresentation": "TEXT",
    "Date.UnixTimeRepresentation": "INTEGER",
    "UUID.BytesRepresentation": "BLOB",
  ]

  static let representationList = "JSONRepresentation<T>, Date.UnixTimeRepresentation, UUID.BytesRepresentation"

  /// The storage of a representation type, or nil if it is not one the generator knows.
  static func representationStorage(_ type: TypeSyntax) -> String? {
    guard case .named(let components) = type else { return nil }
    var names = components.map(\.name)
    if names.first == "Strata" || names.first == "StrataCore" { names.removeFirst() }
    return representations[names.joined(separator: ".")]
  }

  /// Raw value types of enums stored by their raw value.
  static let rawValueTypes: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "String", "Double",
    "Float", "Bool",
  ]
}
