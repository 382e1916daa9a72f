/// The declarations the front-end reads from Swift source: types, their stored and computed
/// properties, enum cases, typealiases and annotation comments. Everything else (function
/// bodies, statements, expressions) is skipped.

/// A type as written: `Int`, `Game.ID`, `[String]`, `Date?`, `Optional<UUID>`.
indirect enum TypeSyntax: Hashable, Sendable {
  struct Component: Hashable, Sendable {
    var name: String
    var arguments: [TypeSyntax]
  }

  case named([Component])
  case optional(TypeSyntax)
  case implicitlyUnwrapped(TypeSyntax)
  case array(TypeSyntax)
  case dictionary(TypeSyntax, TypeSyntax)
  /// A tuple, function, existential, opaque or other type no model column can have.
  case unsupported(String)

  /// The type in canonical Swift spelling, with names as declared (no backticks), for looking
  /// types up; `Optional<T>` is written `T?`.
  var text: String { spelled { $0 } }

  /// The type as generated code writes it: names that need backticks have them.
  var swiftText: String { spelled(SwiftLiteral.identifier) }

  private func spelled(_ name: (String) -> String) -> String {
    switch self {
    case .named(let components):
      return components.map { component in
        component.arguments.isEmpty
          ? name(component.name)
          : name(component.name) + "<" + component.arguments.map { $0.spelled(name) }.joined(separator: ", ") + ">"
      }.joined(separator: ".")
    case .optional(let wrapped):
      return wrapped.needsParenthesesBeforeSuffix ? "(\(wrapped.spelled(name)))?" : wrapped.spelled(name) + "?"
    case .implicitlyUnwrapped(let wrapped):
      return wrapped.spelled(name) + "!"
    case .array(let element):
      return "[" + element.spelled(name) + "]"
    case .dictionary(let key, let value):
      return "[" + key.spelled(name) + ": " + value.spelled(name) + "]"
    case .unsupported(let text):
      return text
    }
  }

  private var needsParenthesesBeforeSuffix: Bool {
    if case .unsupported = self { return true }
    return false
  }

  /// `Optional<T>` written out, normalized to `.optional`.
  static func normalized(_ components: [Component]) -> TypeSyntax {
    if components.count == 1, components[0].name == "Optional", components[0].arguments.count == 1 {
      return .optional(components[0].arguments[0])
    }
    if components.count == 2, components[0].name == "Swift", components[1].name == "Optional",
      components[1].arguments.count == 1
    {
      return .optional(components[1].arguments[0])
    }
    return .named(components)
  }

  /// The type without one level of optionality, and whether there was one.
  var unwrapped: (type: TypeSyntax, isOptional: Bool) {
    if case .optional(let wrapped) = self { return (wrapped, true) }
    return (self, false)
  }

  /// The dotted name of a named type without generic arguments: `Game.ID`.
  var dottedName: String? {
    guard case .named(let components) = self, components.allSatisfy(\.arguments.isEmpty) else {
      return nil
    }
    return components.map(\.name).joined(separator: ".")
  }

  /// The dotted name without a leading Strata module: `Strata.Table`, `StrataCore.Table`,
  /// `StrataPostgreSQL.Table` and `Table` name one protocol.
  var strataName: String? {
    guard let dottedName else { return nil }
    let module = dottedName.prefix { $0 != "." }
    guard StrataModules.names.contains(String(module)), module.count < dottedName.count else { return dottedName }
    return String(dottedName.dropFirst(module.count + 1))
  }
}

/// The modules that export Strata's types, which model files may name them by.
enum StrataModules {
  static let names: Set<String> = ["Strata", "StrataCore", "StrataPostgreSQL"]
}

/// A literal or simple expression, as far as the generator needs to know it.
enum ExpressionValue: Hashable, Sendable {
  case string(String)
  case integer(String)
  case float(String)
  case bool(Bool)
  case `nil`
  /// `.name` or `Type.name`: an enum case or a static member.
  case member(type: String?, name: String)
  /// `Type(…)`: tells the type for inference, not a value.
  case call(type: String)
  /// `.name(value)` or `Type.name(label: value)`, with a literal value: an enum case that holds
  /// one (`.note("")`).
  indirect case enumCase(type: String?, name: String, value: ExpressionValue)
  case emptyArray
  case emptyDictionary
  /// Anything else: a computed value, an interpolated string, an array of values.
  case other
}

/// An initializer expression: its source text, copied into generated code, and its value.
struct Expression: Hashable, Sendable {
  var text: String
  var value: ExpressionValue
  var location: SourceLocation
}

/// `// @Name(arguments)`: an annotation comment above a declaration.
struct Annotation: Hashable, Sendable {
  enum Value: Hashable, Sendable {
    case string(String)
    case bool(Bool)
    case number(String)
    /// `.name`
    case member(String)
    /// `Type.self`
    case type(TypeSyntax)
  }

  struct Argument: Hashable, Sendable {
    var label: String?
    var value: Value
    var location: SourceLocation
  }

  var name: String
  var arguments: [Argument]
  var location: SourceLocation
}

enum AccessLevel: String, Hashable, Sendable, Comparable {
  case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

  private var rank: Int {
    switch self {
    case .private: 0
    case .fileprivate: 1
    case .internal: 2
    case .package: 3
    case .public: 4
    case .open: 5
    }
  }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// A `let` or `var` in a type body.
struct PropertyDeclaration: Hashable, Sendable {
  enum Storage: Hashable, Sendable {
    /// A stored property, possibly with `willSet`/`didSet`.
    case stored
    /// A computed property: not a column.
    case computed
  }

  var name: String
  var location: SourceLocation
  var isLet: Bool
  var isStatic: Bool
  var isLazy: Bool
  var accessLevel: AccessLevel?
  /// Attribute names, such as property wrappers: `@Published` gives `Published`.
  var attributes: [String]
  var annotations: [Annotation]
  var type: TypeSyntax?
  var initializer: Expression?
  var storage: Storage
  /// Declared inside `#if`.
  var isConditional: Bool
}

struct EnumCase: Hashable, Sendable {
  /// One associated value: `URL`, `startDate: Date`.
  struct AssociatedValue: Hashable, Sendable {
    var label: String?
    /// Nil when the parser could not read the type.
    var type: TypeSyntax?
  }

  var name: String
  var rawValue: ExpressionValue?
  /// The associated values in parentheses; nil for a case without parentheses.
  var associatedValues: [AssociatedValue]? = nil
  var location: SourceLocation
}

/// A member the parser could not read; an error only if it is inside a model.
struct UnreadMember: Hashable, Sendable {
  var reason: String
  var location: SourceLocation
}

/// A struct, class, enum, actor, protocol or extension, with what it declares.
struct TypeDeclaration: Hashable, Sendable {
  enum Kind: String, Hashable, Sendable {
    case `struct`, `class`, `enum`, `actor`, `protocol`, `extension`
  }

  var kind: Kind
  /// The declared name; for an extension, the extended type as written (`Game`, `Outer.Row`).
  var name: String
  /// The names of enclosing types, outermost first.
  var scope: [String]
  var location: SourceLocation
  var accessLevel: AccessLevel?
  var isGeneric: Bool
  var inheritance: [TypeSyntax]
  var annotations: [Annotation]
  var properties: [PropertyDeclaration] = []
  var cases: [EnumCase] = []
  var typealiases: [String: TypeSyntax] = [:]
  var unread: [UnreadMember] = []
  var isConditional: Bool

  /// The fully qualified name: `Outer.Row`.
  var qualifiedName: String {
    (scope + [name]).joined(separator: ".")
  }
}

/// An annotation above a declaration that cannot carry one.
struct MisplacedAnnotation: Hashable, Sendable {
  var annotation: Annotation
  /// What it is above: `a function`, `an enum case`.
  var declaration: String
}

/// Everything read from one file.
struct SourceFileDeclarations: Sendable {
  var path: String
  var types: [TypeDeclaration]
  /// Top-level typealiases.
  var typealiases: [String: TypeSyntax]
  /// Annotations above functions, enum cases, typealiases and other declarations that are not
  /// types or properties.
  var misplacedAnnotations: [MisplacedAnnotation] = []
  /// Annotation comments directly above no declaration.
  var unattachedAnnotations: [Annotation] = []
  /// What the front-end could not read.
  var diagnostics: Diagnostics
  /// Input nested beyond the front-end's limits, which it skipped, and `@DatabaseFunction`s the
  /// generator cannot make SQL functions of: an error in any file, since the compiler may accept
  /// what Strata did not read or use.
  var beyondLimits: [Diagnostic] = []
  /// The SQL functions the file writes in Swift.
  var functions: [AppFunction] = []
  /// The Swift functions annotated `// @DatabaseFunction`.
  var databaseFunctions: [DatabaseFunctionDeclaration] = []
}
