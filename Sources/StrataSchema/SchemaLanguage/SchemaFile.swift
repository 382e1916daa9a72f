import StrataSQL

/// A schema file (`*.strata`) as written: the declarations of the schema language, with where
/// each part is, before anything is checked beyond the grammar.
///
/// The schema language says what Swift models say, in the form of a schema: tables and their
/// columns, selections (result rows) and enums. ``SchemaFileRenderer`` turns it into the Swift
/// models it stands for, which then go through the same translation as hand-written models.
struct SchemaFile: Sendable {
  var path: String
  var declarations: [Declaration]

  enum Access: String, Sendable {
    case `public`, package, `internal`
  }

  enum Declaration: Sendable {
    case table(Table)
    case selection(Selection)
    case enumeration(Enumeration)
  }

  /// A name as written, with where it is.
  struct Name: Sendable {
    var text: String
    var location: SourceLocation
  }

  /// A column's or field's type: a Swift type name (`Int`, `Game.ID`, `Priority`), or a type
  /// stored as JSON (`JSON<[String]>`), optional with `?`.
  struct ColumnType: Sendable {
    /// The Swift type, without the optional mark.
    var swiftType: String
    var isJSON: Bool
    var isOptional: Bool
    /// The dotted name, for a type that names a table's key (`Game.ID`).
    var components: [String]
  }

  /// A default value, already in Swift's spelling.
  enum DefaultValue: Sendable {
    case string(String)
    /// The digits of an integer literal, with its sign.
    case integer(String)
    /// The digits of a floating-point literal, with its sign.
    case float(String)
    case bool(Bool)
    case `nil`
    /// `.case` of an enum.
    case member(String)
    /// `[]`, for a JSON array.
    case emptyArray
    /// `[:]`, for a JSON dictionary.
    case emptyDictionary
  }

  struct Column: Sendable {
    var name: Name
    var type: ColumnType
    var isPrimary = false
    var isUnique = false
    var isIndexed = false
    var collation: Collation?
    var sqlName: String?
    var previousName: String?
    /// `lossy`: the next migration may convert the values lossily (`@AllowLossyConversion`).
    var allowsLossyConversion = false
    var references: Name?
    var onDelete: ReferentialAction?
    var representation: String?
    var defaultValue: DefaultValue?
    /// `default raw "…"`: the column's SQL default.
    var rawDefault: String?
  }

  /// `index (a, b)` or `unique (a, b)` in a table: an index on several columns.
  struct Index: Sendable {
    var columns: [Name]
    var isUnique: Bool
    var location: SourceLocation
    /// `where raw "…"`: the condition of a partial index.
    var condition: String?
  }

  /// `primary (a, b)` or `check raw "…"` in a table: a constraint on the whole table.
  enum Constraint: Sendable {
    case primaryKey([Name])
    case check(String)
  }

  struct Table: Sendable {
    var name: Name
    var access: Access?
    var sqlName: String?
    var previousName: String?
    /// `unmanaged`: the migrations alone make the table (`@Unmanaged`).
    var isUnmanaged = false
    var columns: [Column]
    var indexes: [Index] = []
    var constraints: [(constraint: Constraint, location: SourceLocation)] = []

    /// The columns of `primary (a, b)`, if the table has it.
    var compositeKey: [Name]? {
      constraints.lazy.compactMap { item -> [Name]? in
        if case .primaryKey(let names) = item.constraint { return names }
        return nil
      }.first
    }
  }

  struct Field: Sendable {
    var name: Name
    var type: ColumnType
    var representation: String?
  }

  struct Selection: Sendable {
    var name: Name
    var access: Access?
    var fields: [Field]
  }

  struct Enumeration: Sendable {
    var name: Name
    var access: Access?
    /// The Swift raw value type.
    var rawType: String
    var cases: [(name: Name, value: DefaultValue?)]
  }
}

// What the Swift models a schema file stands for say, decided once for the Swift text the build
// compiles (SchemaFileRenderer) and the declarations the translator reads (SchemaFileDeclarations).

extension SchemaFile.Table {
  /// The column the model is keyed by: `id`, else the one marked `primary`; none for a key on
  /// several columns.
  var key: SchemaFile.Column? {
    compositeKey != nil ? nil : columns.first { $0.name.text == "id" } ?? columns.first(where: \.isPrimary)
  }
}

extension SchemaFile.ColumnType {
  /// The type as Swift writes it, optional with `?`; names that need backticks have them.
  var swiftText: String {
    (isJSON ? swiftType : SwiftLiteral.qualifiedName(swiftType)) + (isOptional ? "?" : "")
  }

  /// The representation a column of this type stores through, as Swift writes it: JSON for a
  /// `JSON<…>` type, or the `as` representation given.
  func representation(_ explicit: String?) -> String? {
    isJSON ? "JSONRepresentation<\(swiftType)>" : explicit.map(SwiftLiteral.qualifiedName)
  }
}

extension SchemaFile.Column {
  /// The table a `references` or `on delete` names, as a dotted name's components: the one
  /// `references` gives, or the table of a key type (`Owner.ID`).
  var referencedTable: [String]? {
    if let references { return [references.text] }
    if onDelete != nil, type.components.count >= 2, type.components.last == "ID" { return Array(type.components.dropLast()) }
    return nil
  }
}
