/// A complete SQL statement whose result rows decode as `QueryValue`.
///
/// `QueryValue` is `()` for statements that return no rows (an `INSERT` without `RETURNING`), a
/// single type for one column or a table (`Player`), and a tuple for several
/// (`(Game, Player?)`). Executors run a statement as one or more ``QueryBatch``es.
public protocol QueryStatement<QueryValue>: QueryExpression {
  /// Whether the statement is known to do nothing (`Player.none`, an insert of no rows), so an
  /// executor can skip the database entirely.
  var isEmpty: Bool { get }

  /// The statement as the SQL to run, split into pieces that each bind at most `maxBindings`
  /// values. Only multi-row inserts need more than one piece.
  func executionBatches(maxBindings: Int) -> [QueryBatch]

  /// The statement's SQL when it always runs as one piece, which spares executors the batches
  /// (an empty fragment when the statement does nothing, so that an executor learns both from
  /// one rendering); nil for a statement that may need several (a multi-row insert).
  var singleBatch: QueryFragment? { get }

  /// The statement for a database other than SQLite, in pieces that each bind at most
  /// `maxBindings` values, each with the parts that database spells its own way; see
  /// ``statements(for:maxBindings:)``.
  func dialectFragments(maxBindings: Int) -> [QueryFragment]

  /// Calls `body` with each value the statement writes into a column, with the table's quoted
  /// name and the column's: an executor refuses, before running it, a value its database would
  /// not store as given, naming the column.
  func forEachWrittenValue(_ body: (_ table: String, _ column: String, _ value: QueryBinding) throws -> Void) rethrows

  /// Whether a database that keeps statements prepared by their text (PostgreSQL's named
  /// statements) keeps this one: the builder's queries and writes, whose few shapes an app runs
  /// again and again; not SQL written by hand (``SQLQuery``) or a schema statement (a temporary
  /// view or trigger), which may change what the kept statements read.
  var isPreparedForReuse: Bool { get }
}

extension QueryStatement {
  public var isEmpty: Bool { queryFragment.isEmpty }

  public func executionBatches(maxBindings: Int) -> [QueryBatch] {
    let fragment = queryFragment
    return [QueryBatch(sql: fragment.sql, bindings: [fragment.bindings[...]])]
  }

  public var singleBatch: QueryFragment? { queryFragment }

  public func dialectFragments(maxBindings: Int) -> [QueryFragment] { isEmpty ? [] : [queryFragment] }

  public func forEachWrittenValue(_ body: (_ table: String, _ column: String, _ value: QueryBinding) throws -> Void) rethrows {}

  public var isPreparedForReuse: Bool { true }

  /// The statements to send to `dialect`'s database, with their values: SQLite's text as built;
  /// for PostgreSQL, numbered placeholders (`$1`, `$2`, …), PostgreSQL's spelling of the parts
  /// that differ (`IS NOT DISTINCT FROM`, `ILIKE`, `strpos`, `DEFAULT` for a key a `Draft`
  /// leaves to the database), and a many-row insert split to fit `maxBindings`.
  ///
  /// - Throws: ``DialectError`` when the statement uses something only SQLite has.
  public func statements(for dialect: SQLDialect, maxBindings: Int = 65_535) throws -> [(sql: String, bindings: [QueryBinding])] {
    try dialectFragments(maxBindings: maxBindings).map { try $0.rendered(for: dialect) }
  }
}

/// One piece of SQL to prepare and run, with the values for its placeholders.
///
/// Bindings come in slices of the statement's own arrays so that splitting a large insert
/// copies no values.
public struct QueryBatch: Sendable {
  /// The SQL text, with a `?` per binding.
  public let sql: String
  /// The bindings, in placeholder order, in consecutive slices.
  public let bindings: [ArraySlice<QueryBinding>]

  /// A batch of `sql` with its bindings.
  public init(sql: String, bindings: [ArraySlice<QueryBinding>]) {
    self.sql = sql
    self.bindings = bindings
  }
}
