/// A Swift type stored as the rows of an SQLite table.
///
/// The Strata generator writes this conformance for every struct that declares `Table`; the
/// shape of the generated code is described in `Documentation/GeneratedCode.md`. A conformance
/// consists of the table's name, a ``TableColumnSet`` describing its columns, a decoding
/// initializer that reads the columns in order, and ``TableRow/encode(into:)`` which writes
/// them in the same order.
///
/// Queries start from the type: `Player.all`, `Player.where { $0.score > 10 }`,
/// `Player.insert { draft }`, `Player.update { $0.score += 1 }`.
///
/// A column is also reachable from the type itself, as in StructuredQueries: `Player.score` is
/// `Player.columns.score` (`sql("\(Player.score) > 10")`). A static member the protocol already
/// has (`all`, `count`, `order`, `limit`, …) wins over a column of the same name; reach such a
/// column through ``columns``.
@dynamicMemberLookup
public protocol Table: QueryRepresentable, TableRow
where TableColumns.QueryValue == Self, Base == Self {
  /// The typed description of the table's columns, handed to query closures as `$0`.
  associatedtype TableColumns: TableColumnSet

  /// This table as the optional side of an outer join: `Self?`, or `Self` when it is already
  /// optional.
  associatedtype Nullable: Table = Self?

  /// The table's name in the database.
  static var tableName: String { get }

  /// The table's columns.
  static var columns: TableColumns { get }

  /// The statement every query of the type starts from: every row, unless the type declares a
  /// default scope of its own:
  ///
  /// ```swift
  /// struct Item: Table {
  ///   static let all = unscoped.where { !$0.isDeleted }
  ///   …
  /// }
  /// Item.where { $0.name.eq("red") }   // … WHERE (NOT "items"."isDeleted") AND ("items"."name" = ?)
  /// Item.unscoped.where { … }          // every row, deleted ones too
  /// ```
  static var all: Where<Self> { get }

  /// The alias the table goes by in a statement (`Employee.as(Manager.self)`), or nil.
  static var tableAlias: String? { get }

  /// The database the table is in, when it is an attached one (`// @Table(schema: "cache")`):
  /// statements name the table `"cache"."entries"`. Nil for the main database.
  static var schemaName: String? { get }

  /// The table's SQL text that every statement on it repeats, rendered once. Generated code
  /// stores it (`static let _tableSQL = StrataCore.TableSQL.of(Self.self)`), so that reaching
  /// it costs a check that it is made; a type without it finds it in a shared cache under a lock.
  static var _tableSQL: TableSQL { get }
}

extension Table {
  // Inlinable, so that decoding an optional table (a left join's right side) counts its columns
  // without a lookup of the associated type's witness on every row.
  @inlinable public static var queryColumnCount: Int { TableColumns.columnNames.count }

  public static var all: Where<Self> { unscoped }

  /// Every row, without the type's default scope (``all``).
  public static var unscoped: Where<Self> {
    Where(clauses: SelectClauses(scope: .unscoped))
  }

  public static var tableAlias: String? { nil }

  public static var schemaName: String? { nil }

  public static var _tableSQL: TableSQL { TableSQL.of(Self.self) }

  /// A column (or group) of the table, from the type: `Player.score`.
  public static subscript<Member>(dynamicMember keyPath: KeyPath<TableColumns, Member>) -> Member {
    columns[keyPath: keyPath]
  }
}

/// A value that can be inserted as a row of `Base`: the table type itself, or its `Draft`.
public protocol TableRow<Base> {
  /// The table the row belongs to.
  associatedtype Base: Table

  /// Appends the row's values, one per column, in the order of
  /// `Base.TableColumns.columnNames`.
  func encode(into bindings: inout [QueryBinding])
}
