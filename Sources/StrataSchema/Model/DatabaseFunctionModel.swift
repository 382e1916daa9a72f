/// A Swift function the generator makes an SQL function of (`// @DatabaseFunction`): what the
/// emitter needs to write its typed call and its registration.
public struct DatabaseFunctionModel: Sendable {
  /// One SQL argument.
  public struct Argument: Sendable {
    /// The label calls write; nil for none.
    public var label: String?
    /// The Swift type, as generated code writes it.
    public var swiftType: String
    /// The Swift type without its optionality, which an argument's expression must have.
    public var unwrappedSwiftType: String
    /// The default value as written in the function's declaration.
    public var defaultValue: String?
  }

  /// How an aggregate's body gets its rows.
  public struct Aggregate: Sendable {
    /// The sequence parameter's label in the Swift function; nil for none.
    public var label: String?
    /// The labels of the row tuple's elements, when the row is a tuple.
    public var rowLabels: [String?]?
  }

  /// The function's name in SQL.
  public var sqlName: String
  /// The Swift function's name.
  public var swiftName: String
  /// The type it is a static member of, qualified; nil at the top level.
  public var scope: String?
  public var access: MemberAccess
  public var arguments: [Argument]
  /// Set for an aggregate.
  public var aggregate: Aggregate?
  /// The result type; nil when the function returns nothing.
  public var resultType: String?
  public var isThrowing: Bool
  public var isDeterministic: Bool
  public var location: SourceLocation
  /// Whether the Swift side is a computed property, read without a call.
  public var isProperty = false
}
