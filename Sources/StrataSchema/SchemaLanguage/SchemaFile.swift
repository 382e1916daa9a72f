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
    /// `merge max`, `merge with "function"`: how a synced column's concurrent writes combine.
    var merge: SyncMergeModel?
    var isUnique = false
    var isIndexed = false
    var collation: Collation?
    var sqlName: String?
    var previousName: String?
    /// `lossy`: the next migration may convert the values lossily (`@AllowLossyConversion`).
    var allowsLossyConversion = false
    /// `unindexed`: an FTS5 model's column stored beside the text without being searched
    /// (`@Unindexed`).
    var isUnindexed = false
    var references: Name?
    var onDelete: ReferentialAction?
    var representation: String?
    var defaultValue: DefaultValue?
    /// `default raw "…"`: the column's SQL default.
    var rawDefault: String?
    /// `backfill raw "…"`: the value the rows a table has get when the column is added
    /// (`@Backfill(raw:)`).
    var backfill: String?
    /// `generated raw "…"`: the expression of a generated column (`@Generated(raw:)`).
    var generated: String?
    /// `stored`: the generated column is stored.
    var isStoredGenerated = false
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
    /// `synced`: the table's rows sync between replicas (`@Synced`).
    var isSynced = false
    var columns: [Column]
    var indexes: [Index] = []
    var constraints: [(constraint: Constraint, location: SourceLocation)] = []
    /// What the declaration stores its rows in.
    var kind = Kind.table
    /// `trigger "name" raw "…"` lines: triggers declared with the table (`@Trigger`).
    var triggers: [(name: String, sql: String, location: SourceLocation)] = []

    /// `table`, `fts5` or `view`.
    enum Kind: Sendable {
      case table
      /// `fts5 Name content Table tokenize "…" prefix "2 3"`: an FTS5 index (`@FTS5`), whose
      /// `rowid` column the declaration adds.
      case fullTextIndex(content: Name?, tokenizer: String?, prefix: String?)
      /// `view Name as raw "SELECT …"` (`@View(raw:)`).
      case view(select: String)
    }

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
    if case .fullTextIndex = kind { return columns.first { $0.name.text == "rowid" } }
    return compositeKey != nil ? nil : columns.first { $0.name.text == "id" } ?? columns.first(where: \.isPrimary)
  }

  /// The protocol the model's struct conforms to: `Table`, or `FTS5` for a full-text index.
  var modelProtocol: String {
    if case .fullTextIndex = kind { "FTS5" } else { "Table" }
  }

  /// Whether a key other than `id` needs `@Column(primaryKey: true)`: a full-text index is keyed
  /// by its `rowid` without one.
  var marksKey: Bool {
    if case .fullTextIndex = kind { false } else { true }
  }

  /// The annotations above the struct that say its kind and triggers, as name and arguments, in
  /// order: `@FTS5(…)` or `@View(raw:)`, then one `@Trigger` per trigger.
  var kindAnnotations: [(name: String, arguments: [(label: String?, value: KindArgument)], location: SourceLocation)] {
    var annotations: [(name: String, arguments: [(label: String?, value: KindArgument)], location: SourceLocation)] = []
    switch kind {
    case .table: break
    case .fullTextIndex(let content, let tokenizer, let prefix):
      var arguments: [(label: String?, value: KindArgument)] = []
      if let content { arguments.append(("content", .type(content))) }
      if let tokenizer { arguments.append(("tokenize", .string(tokenizer))) }
      if let prefix { arguments.append(("prefix", .string(prefix))) }
      if !arguments.isEmpty { annotations.append(("FTS5", arguments, name.location)) }
    case .view(let select):
      annotations.append(("View", [("raw", .string(select))], name.location))
    }
    for trigger in triggers {
      annotations.append(("Trigger", [(nil, .string(trigger.name)), ("raw", .string(trigger.sql))], trigger.location))
    }
    return annotations
  }

  /// An argument of those annotations: a string, or a table's name (`Article.self`).
  enum KindArgument {
    case string(String)
    case type(SchemaFile.Name)
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
