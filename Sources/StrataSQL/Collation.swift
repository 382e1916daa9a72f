/// A text collation: how `COLLATE` compares and sorts text, in a query or a column's definition.
public struct Collation: Hashable, Sendable {
  /// The name: SQLite's spelling for a built-in collation, the registered one otherwise.
  public let name: String
  /// Whether SQLite defines the collation (`BINARY`, `NOCASE`, `RTRIM`), rather than an
  /// application registering it on each connection.
  public let isBuiltIn: Bool

  /// A collation registered on the connection, such as one added with GRDB's
  /// `Database.add(collation:)`.
  public init(_ name: String) {
    self.init(name: name, isBuiltIn: false)
  }

  private init(name: String, isBuiltIn: Bool) {
    self.name = name
    self.isBuiltIn = isBuiltIn
  }

  /// A collation as SQL names it: the built-in ones in any case.
  package init(named name: String) {
    self = Self.builtIn.first { $0.name == name.uppercased() } ?? Collation(name)
  }

  /// Byte-wise comparison, SQLite's default.
  public static let binary = Collation(name: "BINARY", isBuiltIn: true)
  /// Case-insensitive for ASCII letters.
  public static let nocase = Collation(name: "NOCASE", isBuiltIn: true)
  /// Binary, ignoring trailing spaces.
  public static let rtrim = Collation(name: "RTRIM", isBuiltIn: true)

  private static let builtIn = [binary, nocase, rtrim]

  /// The name after `COLLATE`: a built-in one as SQLite spells it, another one quoted.
  public var sql: String {
    isBuiltIn ? name : SQLQuoting.identifier(name)
  }

  // SQLite compares collation names without case.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.isBuiltIn == rhs.isBuiltIn && lhs.name.uppercased() == rhs.name.uppercased()
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(isBuiltIn)
    hasher.combine(name.uppercased())
  }
}
