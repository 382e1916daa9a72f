import StrataSQL

/// The rule that keeps an enum stored in a table readable: a row holds exactly one of its cases
/// (at most one, for an optional enum), whole.
///
/// An enum stored as a column group (`var kind: Kind`, `enum Kind: Selection { case note(String);
/// case image(Image) }`) keeps each case's value in columns of its own, NULL in the rows of the
/// other cases. A row whose columns hold no case, two cases, or part of a case's group reads as
/// nothing the model has; the table's `CHECK` refuses such a row, whoever writes it, and a
/// migration that rebuilds the table checks (or, with a default case, fixes) the rows it copies.
public struct CaseRule: Hashable, Sendable {
  /// The property, as Swift names it from the table: `kind`, `route.kind`.
  public var property: String
  /// The Swift type of the property's value: `Attachment.Kind`, or a struct that holds one.
  public var swiftType: String
  /// How the property's value is stored.
  public var shape: StoredShape
  /// The columns of the property's default case (`var kind: Kind = .note("")`) and the SQL of
  /// their values: what a copied row that holds no case gets. Nil without a literal default.
  public var defaultCase: [String: String]?

  public init(property: String, swiftType: String, shape: StoredShape, defaultCase: [String: String]? = nil) {
    self.property = property
    self.swiftType = swiftType
    self.shape = shape
    self.defaultCase = defaultCase
  }

  /// The columns the rule reads, in the table's order.
  public var columns: [String] { shape.columns }

  /// The condition every row must meet, with each column written by `column`: the quoted name
  /// in the table's `CHECK`, the value a rebuild copies in a guard.
  public func condition(_ column: (String) -> String) -> String {
    shape.isOptional ? shape.absentOrWhole(column) : shape.whole(column)
  }

  /// The `CHECK` constraint of `table` for the rule, named so that the error of a row it refuses
  /// says which property, and that the planner knows it for the models': `attachments_kind_holds_one_case`.
  public func check(table: String) -> CheckConstraint {
    CheckConstraint(name: Self.checkName(table: table, property: property), expression: condition(SQLQuoting.identifier))
  }

  /// The name of the check of `property` in `table`.
  static func checkName(table: String, property: String) -> String {
    "\(table)_\(property)_\(checkSuffix)"
  }

  private static let checkSuffix = "holds_one_case"

  /// Whether `check`, a check of `table`, is one a rule made: the models', which the planner
  /// changes and drops with them.
  public static func isRuleCheck(_ check: CheckConstraint, of table: String) -> Bool {
    guard let name = check.name else { return false }
    return SQLName.folded(name).hasPrefix(SQLName.folded(table) + "_") && SQLName.folded(name).hasSuffix("_" + checkSuffix)
  }
}

/// How a value is stored in a table's columns: a column, a struct's columns, or an enum's cases.
public indirect enum StoredShape: Hashable, Sendable {
  /// A column; `isOptional` when the Swift value may be nil.
  case column(String, isOptional: Bool)
  /// A `Selection` struct's fields.
  case group([StoredShape], isOptional: Bool)
  /// A `Selection` enum's cases, each a column or a struct (never optional).
  case enumeration([StoredShape], isOptional: Bool)

  public var isOptional: Bool {
    switch self {
    case .column(_, let isOptional), .group(_, let isOptional), .enumeration(_, let isOptional): isOptional
    }
  }

  /// Whether the shape holds an enum, so that a rule is needed to read it.
  public var holdsEnum: Bool {
    switch self {
    case .column: false
    case .group(let fields, _): fields.contains(where: \.holdsEnum)
    case .enumeration: true
    }
  }

  /// The columns, in order.
  public var columns: [String] {
    switch self {
    case .column(let name, _): [name]
    case .group(let parts, _), .enumeration(let parts, _): parts.flatMap(\.columns)
    }
  }

  /// SQL that is true when some column of the value is not NULL.
  func present(_ column: (String) -> String) -> String {
    let conditions = columns.map { "\(column($0)) IS NOT NULL" }
    return conditions.count == 1 ? conditions[0] : "(" + conditions.joined(separator: " OR ") + ")"
  }

  /// SQL that is true when the value, present, reads back: every non-optional column has a value,
  /// and an enum holds exactly one case. Nil when any values do.
  func whole(_ column: (String) -> String) -> String {
    switch self {
    case .column(let name, let isOptional):
      return isOptional ? "TRUE" : "\(column(name)) IS NOT NULL"
    case .group(let fields, _):
      let conditions = fields.map { field in field.isOptional ? field.absentOrWhole(column) : field.whole(column) }
        .filter { $0 != "TRUE" }
      return conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ")
    case .enumeration(let cases, let isOptional):
      let count = "(" + cases.map { "CASE WHEN \($0.present(column)) THEN 1 ELSE 0 END" }.joined(separator: " + ") + ")"
      // A case that holds a group must hold all of it.
      let groups = cases.filter { if case .group = $0 { true } else { false } }.map { group in
        let whole = group.whole(column)
        return whole == "TRUE" ? nil : "(NOT \(group.present(column)) OR \(Self.parenthesized(whole)))"
      }.compactMap { $0 }
      return ([count + (isOptional ? " <= 1" : " = 1")] + groups).joined(separator: " AND ")
    }
  }

  /// SQL that is true when the value is absent (every column NULL) or whole.
  func absentOrWhole(_ column: (String) -> String) -> String {
    switch self {
    case .column: return "TRUE"
    case .enumeration:
      // An optional enum's own condition allows no case.
      return whole(column)
    case .group:
      let whole = whole(column)
      return whole == "TRUE" ? "TRUE" : "(NOT \(present(column)) OR \(Self.parenthesized(whole)))"
    }
  }

  /// Conditions joined with AND, in parentheses, so that they read as one beside an OR.
  private static func parenthesized(_ condition: String) -> String {
    condition.contains(" AND ") ? "(" + condition + ")" : condition
  }
}
