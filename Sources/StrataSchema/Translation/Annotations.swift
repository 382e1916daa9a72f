import StrataSQL
import Foundation

/// The annotations Strata reads, each described once: what it applies to, which arguments it
/// takes, and what each argument sets. Validation, reading and the help text all come from these
/// descriptions, so adding an annotation is a change in one place.
struct AnnotationDefinition: Sendable {
  enum Target: Sendable {
    case type, storedProperty
    /// Either.
    case typeOrStoredProperty
    /// A function the generator makes an SQL function of.
    case function

    var description: String {
      switch self {
      case .type: "a type"
      case .storedProperty: "a stored property"
      case .typeOrStoredProperty: "a type or a stored property"
      case .function: "a function"
      }
    }

    func allows(_ target: Target) -> Bool {
      self == target || self == .typeOrStoredProperty
    }
  }

  /// One argument: its label (nil for the unlabeled one), and how its value sets the options,
  /// or why it cannot.
  struct Argument: Sendable {
    var label: String?
    /// The message when the argument is missing, for an argument that must be given.
    var missing: String?
    /// Whether each line may give it again, adding rather than combining (`@Index(on:)`: one
    /// index per line).
    var repeatable: Bool
    var read: @Sendable (Annotation.Value, inout AnnotationOptions) -> ArgumentError?

    init(
      label: String?, missing: String? = nil, repeatable: Bool = false,
      read: @escaping @Sendable (Annotation.Value, inout AnnotationOptions) -> ArgumentError?
    ) {
      self.label = label
      self.missing = missing
      self.repeatable = repeatable
      self.read = read
    }
  }

  /// Why an argument's value is not valid: the message, without the help that follows it.
  struct ArgumentError: Error, Sendable {
    var message: String
  }

  var name: String
  var target: Target
  var arguments: [Argument]
  /// Whether at least one argument must be given.
  var needsArgument: Bool
  /// How it is written, for the help that follows every annotation error.
  var usage: [String]
  /// Marks the annotation as present.
  var mark: @Sendable (inout AnnotationOptions) -> Void
}

/// What a declaration's annotations ask for.
struct AnnotationOptions: Sendable {
  var tableName: String?
  /// The attached database the table is in (`@Table(schema: "cache")`).
  var schemaName: String?
  var columnName: String?
  var isPrimaryKey = false
  var representation: TypeSyntax?
  var collation: Collation?
  var isUnique = false
  var isIndexed = false
  /// A table's indexes on several columns, from `@Index(on:)` and `@Unique(on:)` above it.
  var tableIndexes: [TableIndex] = []
  /// The table `@References` names, as written.
  var reference: TypeSyntax?
  var onDelete: ReferentialAction?
  var isEphemeral = false
  /// Whether an FTS5 model's column is stored but not indexed (`@Unindexed`).
  var isUnindexed = false
  /// Whether the table's schema belongs to the migrations alone (`@Unmanaged`).
  var isUnmanaged = false
  /// Whether the table's rows sync between replicas (`@Synced`).
  var isSynced = false
  /// How the column's concurrent writes combine (`@Merge(.max)`, `@Merge(with: "function")`).
  var merge: SyncMergeModel?
  /// The properties of a primary key on several columns, from `@PrimaryKey(on:)` above a table.
  var compositeKey: [String]?
  /// The table's `CHECK` expressions, from `@Check(raw:)`, as written.
  var checks: [String] = []
  /// The column's `DEFAULT` as SQL, from `@Default(raw:)`.
  var rawDefault: String?
  /// The value existing rows get when the column is added, as SQL, from `@Backfill(raw:)`.
  var backfill: String?
  /// The `WHERE` of the index the current `@Index(on:)` or `@Unique(on:)` line makes.
  var pendingIndexCondition: String?
  /// The name the table or column had before, from `@Renamed(from:)`.
  var previousName: String?
  /// Whether the next migration may convert the column's values lossily
  /// (`@AllowLossyConversion`).
  var allowsLossyConversion = false
  /// The expression of a generated column, from `@Generated(raw:)`.
  var generatedExpression: String?
  /// Whether the generated column is stored (`@Generated(raw:, stored: true)`).
  var isStoredGenerated = false
  /// The content table of a full-text index, from `@FTS5(content:)`, as written.
  var fullTextContent: TypeSyntax?
  /// The full-text index's `tokenize` option, from `@FTS5(tokenize:)`.
  var tokenizer: String?
  /// The full-text index's prefix lengths, from `@FTS5(prefix:)`.
  var prefixes: [Int] = []
  /// The view's `SELECT`, from `@View(raw:)`.
  var viewSelect: String?
  /// The triggers `@Trigger` lines declare, in order, with where each is.
  var triggers: [(declaration: TriggerDeclaration, location: SourceLocation?)] = []
  /// The name the current `@Trigger` line gives, until its `raw:` is read.
  var pendingTriggerName: String?
  /// The SQL name of a `@DatabaseFunction` (nil: the Swift name).
  var functionName: String?
  /// Whether a `@DatabaseFunction` gives the same result for the same arguments.
  var isDeterministic = false
  /// Each annotation read, by name, with where it is.
  var present: [String: SourceLocation] = [:]
  /// Each argument read, as `Name.label` (`Column.as`, `Column.` for the unlabeled one), with
  /// where it is.
  var argumentLocations: [String: SourceLocation] = [:]
}

/// An index that `@Index(on: "a, b")` or `@Unique(on: "a, b")` asks for: the properties, in
/// order, as written.
struct TableIndex: Sendable {
  var properties: [String]
  var isUnique: Bool
  var location: SourceLocation?
  /// The `WHERE` of a partial index, from `whereRaw:`.
  var condition: String?
}

enum Annotations {

  static let all: [AnnotationDefinition] = [
    AnnotationDefinition(
      name: "Table", target: .type,
      arguments: [
        .init(label: nil) { value, options in
          guard case .string(let name) = value, !name.isEmpty else {
            return .init(message: #"@Table takes the table's name: @Table("name")"#)
          }
          options.tableName = name
          return nil
        },
        .init(label: "schema") { value, options in
          guard case .string(let name) = value else {
            return .init(message: #"@Table(schema:) takes the attached database's name: @Table(schema: "cache")"#)
          }
          // StructuredQueries' `schema: "main"` names the main database, which Strata's
          // statements name by leaving it out.
          if SQLName.folded(name) == "main" { return nil }
          if let problem = NameRules.schemaNameProblem(name) { return .init(message: problem) }
          options.schemaName = name
          return nil
        },
      ],
      needsArgument: true, usage: [#"@Table("name")"#, #"@Table(schema: "cache")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Column", target: .storedProperty,
      arguments: [
        .init(label: nil) { value, options in
          guard case .string(let name) = value, !name.isEmpty else {
            return .init(message: #"@Column takes the column's name as a string: @Column("name")"#)
          }
          options.columnName = name
          return nil
        },
        .init(label: "primaryKey") { value, options in
          guard case .bool(let flag) = value else {
            return .init(message: "@Column(primaryKey:) takes true or false")
          }
          options.isPrimaryKey = flag
          return nil
        },
        .init(label: "as") { value, options in
          guard case .type(let type) = value else {
            return .init(message: "@Column(as:) takes a representation type: @Column(as: Representation.self)")
          }
          options.representation = type
          return nil
        },
        .init(label: "collate") { value, options in
          guard case .member(let name) = value, let collation = Collation(swiftMember: name) else {
            return .init(message: "@Column(collate:) takes .nocase, .binary or .rtrim")
          }
          options.collation = collation
          return nil
        },
      ],
      needsArgument: true,
      usage: [
        #"@Column("name")"#, "@Column(primaryKey: true)", "@Column(as: Representation.self)",
        "@Column(collate: .nocase)",
      ],
      mark: { _ in }),
    AnnotationDefinition(
      name: "Unique", target: .typeOrStoredProperty,
      arguments: [tableIndexArgument(name: "Unique", isUnique: true), indexConditionArgument(name: "Unique")],
      needsArgument: false, usage: ["@Unique", #"@Unique(on: "a, b")"#], mark: { $0.isUnique = true }),
    AnnotationDefinition(
      name: "Index", target: .typeOrStoredProperty,
      arguments: [tableIndexArgument(name: "Index", isUnique: false), indexConditionArgument(name: "Index")],
      needsArgument: false, usage: ["@Index", #"@Index(on: "a, b")"#, #"@Index(on: "a", whereRaw: "b > 0")"#],
      mark: { $0.isIndexed = true }),
    AnnotationDefinition(
      name: "References", target: .storedProperty,
      arguments: [
        .init(label: nil, missing: "@References needs the referenced table: @References(Other.self)") { value, options in
          guard case .type(let type) = value else {
            return .init(message: "@References needs the referenced table: @References(Other.self)")
          }
          options.reference = type
          return nil
        },
        .init(label: "onDelete") { value, options in
          guard case .member(let name) = value, let action = ReferentialAction(swiftMember: name) else {
            return .init(message: "onDelete takes .cascade, .setNull, .setDefault, .restrict or .noAction")
          }
          options.onDelete = action
          return nil
        },
      ],
      needsArgument: false, usage: ["@References(Other.self, onDelete: .cascade)"], mark: { _ in }),
    AnnotationDefinition(
      name: "Synced", target: .type, arguments: [], needsArgument: false, usage: ["@Synced"],
      mark: { $0.isSynced = true }),
    AnnotationDefinition(
      name: "Merge", target: .storedProperty,
      arguments: [
        .init(label: nil) { value, options in
          guard case .member(let name) = value, let merge = SyncMergeModel(member: name) else {
            return .init(message: "@Merge takes .latest, .max, .min, .union or .counter, or a function: @Merge(with: \"mergeNotes\")")
          }
          options.merge = merge
          return nil
        },
        .init(label: "with") { value, options in
          guard case .string(let function) = value, SwiftLiteral.isPlainIdentifier(function) else {
            return .init(message: "@Merge(with:) names a static function of the model, as a string: @Merge(with: \"mergeNotes\")")
          }
          options.merge = .custom(function: function)
          return nil
        },
      ],
      needsArgument: true, usage: ["@Merge(.max)", "@Merge(.counter)", #"@Merge(with: "mergeNotes")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Ephemeral", target: .storedProperty, arguments: [], needsArgument: false, usage: ["@Ephemeral"],
      mark: { $0.isEphemeral = true }),
    AnnotationDefinition(
      name: "Unindexed", target: .storedProperty, arguments: [], needsArgument: false, usage: ["@Unindexed"],
      mark: { $0.isUnindexed = true }),
    AnnotationDefinition(
      name: "PrimaryKey", target: .type,
      arguments: [
        .init(label: "on", missing: #"@PrimaryKey above a table lists its key's properties: @PrimaryKey(on: "itemID, categoryID")"#) {
          value, options in
          guard case .string(let list) = value, let properties = propertyList(list) else {
            return .init(message: #"@PrimaryKey(on:) lists the key's properties, in order: @PrimaryKey(on: "itemID, categoryID")"#)
          }
          options.compositeKey = properties
          return nil
        }
      ],
      needsArgument: true, usage: [#"@PrimaryKey(on: "a, b")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Check", target: .type,
      arguments: [
        .init(label: "raw", missing: #"@Check takes the SQL expression every row must satisfy: @Check(raw: "score >= 0")"#, repeatable: true) {
          value, options in
          guard case .string(let sql) = value else {
            return .init(message: #"@Check(raw:) takes the SQL expression as a string: @Check(raw: "score >= 0")"#)
          }
          if let problem = RawSQLFragment.problem(sql) { return .init(message: "@Check(raw:) \(problem)") }
          options.checks.append(sql)
          return nil
        }
      ],
      needsArgument: true, usage: [#"@Check(raw: "score >= 0")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Default", target: .storedProperty,
      arguments: [
        .init(label: "raw", missing: #"@Default takes the column's default as SQL: @Default(raw: "CURRENT_TIMESTAMP")"#) {
          value, options in
          guard case .string(let sql) = value else {
            return .init(message: #"@Default(raw:) takes the default as an SQL string: @Default(raw: "CURRENT_TIMESTAMP")"#)
          }
          if let problem = RawSQLFragment.problem(sql) { return .init(message: "@Default(raw:) \(problem)") }
          options.rawDefault = sql.trimmingCharacters(in: .whitespaces)
          return nil
        }
      ],
      needsArgument: true, usage: [#"@Default(raw: "CURRENT_TIMESTAMP")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Backfill", target: .storedProperty,
      arguments: [
        .init(label: "raw", missing: #"@Backfill takes the value existing rows get, as SQL: @Backfill(raw: "'untitled'")"#) {
          value, options in
          guard case .string(let sql) = value else {
            return .init(message: #"@Backfill(raw:) takes the value as an SQL string: @Backfill(raw: "'untitled'")"#)
          }
          if let problem = RawSQLFragment.problem(sql) { return .init(message: "@Backfill(raw:) \(problem)") }
          options.backfill = sql.trimmingCharacters(in: .whitespaces)
          return nil
        }
      ],
      needsArgument: true, usage: [#"@Backfill(raw: "'untitled'")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Unmanaged", target: .type, arguments: [], needsArgument: false, usage: ["@Unmanaged"],
      mark: { $0.isUnmanaged = true }),
    AnnotationDefinition(
      name: "Renamed", target: .typeOrStoredProperty,
      arguments: [
        .init(label: "from", missing: #"@Renamed takes the name the table or column had: @Renamed(from: "oldName")"#) {
          value, options in
          guard case .string(let name) = value, !name.isEmpty else {
            return .init(message: #"@Renamed takes the name the table or column had: @Renamed(from: "oldName")"#)
          }
          options.previousName = name
          return nil
        }
      ],
      needsArgument: false, usage: [#"@Renamed(from: "oldName")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Generated", target: .storedProperty,
      arguments: [
        .init(label: "raw", missing: #"@Generated takes the column's SQL expression: @Generated(raw: "price * quantity")"#) {
          value, options in
          guard case .string(let sql) = value else {
            return .init(message: #"@Generated(raw:) takes the expression as an SQL string: @Generated(raw: "price * quantity")"#)
          }
          if let problem = RawSQLFragment.problem(sql) { return .init(message: "@Generated(raw:) \(problem)") }
          options.generatedExpression = sql.trimmingCharacters(in: .whitespaces)
          return nil
        },
        .init(label: "stored") { value, options in
          guard case .bool(let flag) = value else { return .init(message: "@Generated(stored:) takes true or false") }
          options.isStoredGenerated = flag
          return nil
        },
      ],
      needsArgument: true, usage: [#"@Generated(raw: "price * quantity")"#, #"@Generated(raw: "…", stored: true)"#],
      mark: { _ in }),
    AnnotationDefinition(
      name: "FTS5", target: .type,
      arguments: [
        .init(label: "content") { value, options in
          guard case .type(let type) = value else {
            return .init(message: "@FTS5(content:) takes the table the index covers: @FTS5(content: Item.self)")
          }
          options.fullTextContent = type
          return nil
        },
        .init(label: "tokenize") { value, options in
          guard case .string(let tokenizer) = value, !tokenizer.allSatisfy(\.isWhitespace),
            InvisibleCharacters.first(in: tokenizer) == nil
          else {
            return .init(message: #"@FTS5(tokenize:) takes FTS5's tokenize option as a string: @FTS5(tokenize: "porter unicode61")"#)
          }
          options.tokenizer = tokenizer
          return nil
        },
        .init(label: "prefix") { value, options in
          var prefixes: [Int] = []
          if case .string(let list) = value { prefixes = list.split(separator: " ").compactMap { Int($0) } }
          guard case .string(let list) = value, !prefixes.isEmpty, prefixes.count == list.split(separator: " ").count,
            prefixes.allSatisfy({ (1...999).contains($0) })
          else {
            return .init(message: #"@FTS5(prefix:) takes the prefix lengths to index, separated by spaces: @FTS5(prefix: "2 3")"#)
          }
          options.prefixes = prefixes
          return nil
        },
      ],
      needsArgument: false,
      usage: [#"@FTS5(content: Item.self, tokenize: "porter unicode61", prefix: "2 3")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "View", target: .type,
      arguments: [
        .init(label: "raw", missing: #"@View takes the view's SELECT: @View(raw: "SELECT … FROM …")"#) { value, options in
          guard case .string(let sql) = value else {
            return .init(message: #"@View(raw:) takes the view's SELECT as a string: @View(raw: "SELECT … FROM …")"#)
          }
          if let problem = RawSQLFragment.problem(sql) { return .init(message: "@View(raw:) \(problem)") }
          options.viewSelect = sql
          return nil
        }
      ],
      needsArgument: true, usage: [#"@View(raw: "SELECT … FROM …")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "Trigger", target: .type,
      arguments: [
        .init(label: nil, repeatable: true) { value, options in
          guard case .string(let name) = value, !name.isEmpty else {
            return .init(message: #"@Trigger takes the trigger's name first: @Trigger("touch_items", raw: "AFTER UPDATE ON … BEGIN … END")"#)
          }
          if let problem = NameRules.tableNameProblem(name) { return .init(message: problem) }
          options.pendingTriggerName = name
          return nil
        },
        .init(label: "raw", repeatable: true) { value, options in
          guard let name = options.pendingTriggerName, case .string(let sql) = value else {
            return .init(message: #"@Trigger takes the trigger's name, then its SQL after the name: @Trigger("touch_items", raw: "AFTER UPDATE ON … BEGIN … END")"#)
          }
          if let problem = RawSQLFragment.problem(sql, allowingStatements: true) { return .init(message: "@Trigger(raw:) \(problem)") }
          options.pendingTriggerName = nil
          options.triggers.append((TriggerDeclaration(name: name, definition: sql), nil))
          return nil
        },
      ],
      needsArgument: true, usage: [#"@Trigger("name", raw: "AFTER UPDATE ON … BEGIN … END")"#], mark: { _ in }),
    AnnotationDefinition(
      name: "AllowLossyConversion", target: .storedProperty, arguments: [], needsArgument: false,
      usage: ["@AllowLossyConversion"], mark: { $0.allowsLossyConversion = true }),
    AnnotationDefinition(
      name: DatabaseFunctionDeclaration.annotation, target: .function,
      arguments: [
        .init(label: nil) { value, options in
          guard case .string(let name) = value, !name.isEmpty else {
            return .init(message: #"@DatabaseFunction takes the function's SQL name: @DatabaseFunction("name")"#)
          }
          options.functionName = name
          return nil
        },
        .init(label: "isDeterministic") { value, options in
          guard case .bool(let flag) = value else {
            return .init(message: "@DatabaseFunction(isDeterministic:) takes true or false")
          }
          options.isDeterministic = flag
          return nil
        },
      ],
      needsArgument: false, usage: [#"@DatabaseFunction"#, #"@DatabaseFunction("name", isDeterministic: true)"#],
      mark: { _ in }),
  ]

  /// `on: "a, b"` of `@Index` and `@Unique` above a table: the properties of one index.
  private static func tableIndexArgument(name: String, isUnique: Bool) -> AnnotationDefinition.Argument {
    .init(label: "on", repeatable: true) { value, options in
      let usage = "@\(name)(on:) takes the properties to index, in order: @\(name)(on: \"gameID, score\")"
      guard case .string(let list) = value, let properties = propertyList(list) else { return .init(message: usage) }
      options.tableIndexes.append(TableIndex(properties: properties, isUnique: isUnique))
      return nil
    }
  }

  /// `whereRaw: "…"` of `@Index(on:)` and `@Unique(on:)`: the condition of a partial index.
  private static func indexConditionArgument(name: String) -> AnnotationDefinition.Argument {
    .init(label: "whereRaw", repeatable: true) { value, options in
      guard case .string(let sql) = value else {
        return .init(message: "@\(name)(whereRaw:) takes the partial index's condition as an SQL string: @\(name)(on: \"title\", whereRaw: \"isArchived = 0\")")
      }
      if let problem = RawSQLFragment.problem(sql) { return .init(message: "@\(name)(whereRaw:) \(problem)") }
      options.pendingIndexCondition = sql
      return nil
    }
  }

  /// `"a, b"`: property names separated by commas, none empty.
  private static func propertyList(_ list: String) -> [String]? {
    let properties = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    return properties.isEmpty || properties.contains(where: \.isEmpty) ? nil : properties
  }

  static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// The known name that `name` most likely misspells: at most two letters added, removed or
  /// changed, ignoring case. Nil when no name is that close, so `// @todo` stays prose.
  static func nearestName(to name: Substring) -> String? {
    NearestName.among(all.map(\.name), to: String(name))
  }

  /// Every annotation as it is written, for the help that follows annotation errors.
  static let help = all.flatMap(\.usage).joined(separator: ", ")

  /// Reads the annotations on a declaration of `target`'s kind, reporting each problem with the
  /// valid annotations listed.
  static func read(
    _ annotations: [Annotation], on target: AnnotationDefinition.Target, diagnostics: inout Diagnostics
  ) -> AnnotationOptions {
    var options = AnnotationOptions()
    func error(_ message: String, at location: SourceLocation) {
      diagnostics.error("\(message); valid annotations: \(help)", at: location)
    }
    for annotation in annotations {
      guard let definition = byName[annotation.name] else {
        let suggestion = nearestName(to: Substring(annotation.name)).map { "; did you mean @\($0)?" } ?? ""
        error("unknown annotation @\(annotation.name)\(suggestion)", at: annotation.location)
        continue
      }
      guard definition.target.allows(target) else {
        error("@\(annotation.name) applies to \(definition.target.description), not \(target.description)", at: annotation.location)
        continue
      }
      // The same annotation on two lines combines its arguments; an argument given twice is an
      // error below.
      if options.present[annotation.name] == nil {
        options.present[annotation.name] = annotation.location
      }
      definition.mark(&options)
      if definition.needsArgument, annotation.arguments.isEmpty {
        error("@\(annotation.name) needs an argument", at: annotation.location)
      }
      if !definition.needsArgument, definition.arguments.isEmpty, !annotation.arguments.isEmpty {
        error("@\(annotation.name) takes no arguments", at: annotation.location)
        continue
      }
      let indexesBefore = options.tableIndexes.count
      for argument in annotation.arguments {
        guard let parameter = definition.arguments.first(where: { $0.label == argument.label }) else {
          error("@\(annotation.name) does not take this argument", at: argument.location)
          continue
        }
        let key = "\(annotation.name).\(argument.label ?? "")"
        if !parameter.repeatable, let first = options.argumentLocations[key] {
          error("@\(annotation.name)\(argument.label.map { "(\($0):)" } ?? "") is given twice (also at line \(first.line)); keep one", at: argument.location)
          continue
        }
        options.argumentLocations[key] = argument.location
        let indexCount = options.tableIndexes.count
        if let problem = parameter.read(argument.value, &options) {
          error(problem.message, at: argument.location)
        }
        if options.tableIndexes.count > indexCount { options.tableIndexes[indexCount].location = argument.location }
      }
      if options.pendingTriggerName != nil {
        options.pendingTriggerName = nil
        error(#"@Trigger needs its SQL on the same line: @Trigger("name", raw: "AFTER UPDATE ON … BEGIN … END")"#, at: annotation.location)
      }
      if let last = options.triggers.indices.last, options.triggers[last].location == nil {
        options.triggers[last].location = annotation.location
      }
      if let condition = options.pendingIndexCondition {
        options.pendingIndexCondition = nil
        if options.tableIndexes.count > indexesBefore {
          options.tableIndexes[options.tableIndexes.count - 1].condition = condition
        } else {
          error(
            "@\(annotation.name)(whereRaw:) makes the index that on: lists partial; write both on one line above the struct: @\(annotation.name)(on: \"title\", whereRaw: \"isArchived = 0\")",
            at: annotation.location)
        }
      }
      for parameter in definition.arguments where parameter.missing != nil {
        if options.argumentLocations["\(annotation.name).\(parameter.label ?? "")"] == nil {
          error(parameter.missing!, at: annotation.location)
        }
      }
    }
    if options.isEphemeral, let other = options.present.filter({ $0.key != "Ephemeral" }).min(by: { $0.value < $1.value }) {
      diagnostics.error(
        "@Ephemeral and @\(other.key) on one property: an @Ephemeral property is not a column, so @\(other.key) would do nothing; remove one of them",
        at: other.value)
    }
    return options
  }
}
