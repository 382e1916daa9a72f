import GRDB
import StrataCore

// Each fetch has two forms: one for a single result type (`[Player]`, `[Int]`) and one for a
// tuple of them (`[(Game, Player?)]`). The single form is what generic code resolves to.

extension QueryStatement {
  /// Runs the statement, ignoring any rows it returns.
  ///
  /// ```swift
  /// try database.write { db in
  ///   try Player.find(id).update { $0.score += 1 }.execute(db)
  /// }
  /// ```
  @inlinable
  public func execute(_ db: Database) throws {
    try StatementExecutor.execute(self, in: db)
  }

  /// Runs the statement and decodes every row: `[Player]`, `[String]`.
  @inlinable
  public func fetchAll(_ db: Database) throws -> [QueryValue.QueryOutput]
  where QueryValue: QueryRepresentable {
    try StatementExecutor.fetchAll(self, in: db) { decoder in try decoder.decode(QueryValue.self) }
  }

  /// Runs the statement and decodes its first row, or returns nil when there is none.
  @inlinable
  public func fetchOne(_ db: Database) throws -> QueryValue.QueryOutput?
  where QueryValue: QueryRepresentable {
    try StatementExecutor.fetchOne(self, in: db) { decoder in try decoder.decode(QueryValue.self) }
  }

  /// Runs the statement and returns a cursor that decodes rows as it steps.
  public func fetchCursor(_ db: Database) throws -> QueryCursor<QueryValue.QueryOutput>
  where QueryValue: QueryRepresentable {
    QueryCursor(database: db, batches: isEmpty ? [] : StatementExecutor.batches(of: self, in: db)) {
      decoder in try decoder.decode(QueryValue.self)
    }
  }

  // Two- and three-column tuples, the common ones, also have forms without a parameter pack:
  // the compiler specializes them fully, which decoding a pack does not get (1.6x slower).

  /// Runs the statement and decodes every row as a pair: `[(String, Int)]`.
  @inlinable
  public func fetchAll<A: QueryRepresentable, B: QueryRepresentable>(
    _ db: Database
  ) throws -> [(A.QueryOutput, B.QueryOutput)] where QueryValue == (A, B) {
    try StatementExecutor.fetchAll(self, in: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self))
    }
  }

  /// Runs the statement and decodes every row as a triple.
  @inlinable
  public func fetchAll<A: QueryRepresentable, B: QueryRepresentable, C: QueryRepresentable>(
    _ db: Database
  ) throws -> [(A.QueryOutput, B.QueryOutput, C.QueryOutput)] where QueryValue == (A, B, C) {
    try StatementExecutor.fetchAll(self, in: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self), try decoder.decode(C.self))
    }
  }

  /// Runs the statement and decodes every row as a tuple: `[(Game, Player?)]`.
  @inlinable
  public func fetchAll<each Value: QueryRepresentable>(
    _ db: Database
  ) throws -> [(repeat (each Value).QueryOutput)] where QueryValue == (repeat each Value) {
    try StatementExecutor.fetchAll(self, in: db) { decoder in
      (repeat try decoder.decode((each Value).self))
    }
  }

  /// Runs the statement and decodes its first row as a pair, or returns nil when there is none.
  @inlinable
  public func fetchOne<A: QueryRepresentable, B: QueryRepresentable>(
    _ db: Database
  ) throws -> (A.QueryOutput, B.QueryOutput)? where QueryValue == (A, B) {
    try StatementExecutor.fetchOne(self, in: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self))
    }
  }

  /// Runs the statement and decodes its first row as a triple, or returns nil when there is none.
  @inlinable
  public func fetchOne<A: QueryRepresentable, B: QueryRepresentable, C: QueryRepresentable>(
    _ db: Database
  ) throws -> (A.QueryOutput, B.QueryOutput, C.QueryOutput)? where QueryValue == (A, B, C) {
    try StatementExecutor.fetchOne(self, in: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self), try decoder.decode(C.self))
    }
  }

  /// Runs the statement and decodes its first row as a tuple, or returns nil when there is none.
  @inlinable
  public func fetchOne<each Value: QueryRepresentable>(
    _ db: Database
  ) throws -> (repeat (each Value).QueryOutput)? where QueryValue == (repeat each Value) {
    try StatementExecutor.fetchOne(self, in: db) { decoder in
      (repeat try decoder.decode((each Value).self))
    }
  }

  /// Runs the statement and returns a cursor that decodes rows as tuples as it steps.
  public func fetchCursor<each Value: QueryRepresentable>(
    _ db: Database
  ) throws -> QueryCursor<(repeat (each Value).QueryOutput)> where QueryValue == (repeat each Value) {
    QueryCursor(
      database: db, batches: isEmpty ? [] : StatementExecutor.batches(of: self, in: db)
    ) { decoder in
      (repeat try decoder.decode((each Value).self))
    }
  }
}

// A statement that selects nothing explicitly returns whole rows: of `From`, or of `From` and
// each joined table, in join order. The forms without joins are spelled out because the
// compiler does not reduce `(From, repeat each J)` to `From` for an empty pack.

extension Select where Columns == (), Joins == () {
  /// Runs the statement and decodes every row: `[Player]`.
  @inlinable
  public func fetchAll(_ db: Database) throws -> [From.QueryOutput] {
    try StatementExecutor.fetchAll(self, in: db) { decoder in try decoder.decode(From.self) }
  }

  /// Runs the statement and decodes its first row, or returns nil when there is none.
  @inlinable
  public func fetchOne(_ db: Database) throws -> From.QueryOutput? {
    try StatementExecutor.fetchOne(self, in: db) { decoder in try decoder.decode(From.self) }
  }

  /// Runs the statement and returns a cursor that decodes rows as it steps.
  public func fetchCursor(_ db: Database) throws -> QueryCursor<From.QueryOutput> {
    QueryCursor(database: db, batches: isEmpty ? [] : StatementExecutor.batches(of: self, in: db)) {
      decoder in try decoder.decode(From.self)
    }
  }
}

extension Select where Columns == (), Joins: Table {
  /// Runs the statement and decodes every row as the table and the one table joined to it:
  /// `[(Game, Player?)]`. (Without a parameter pack, so that it is specialized fully.)
  @inlinable
  public func fetchAll(_ db: Database) throws -> [(From.QueryOutput, Joins.QueryOutput)] {
    try StatementExecutor.fetchAll(self, in: db) { decoder in
      (try decoder.decode(From.self), try decoder.decode(Joins.self))
    }
  }
}

extension Select where Columns == () {
  /// Runs the statement and decodes every row as the table and its joined tables:
  /// `[(Game, Player?)]`.
  @inlinable
  public func fetchAll<J1: Table, each J: Table>(_ db: Database) throws -> [(From.QueryOutput, J1.QueryOutput, repeat (each J).QueryOutput)]
  where Joins == (J1, repeat each J) {
    try StatementExecutor.fetchAll(self, in: db) { decoder in
      (try decoder.decode(From.self), try decoder.decode(J1.self), repeat try decoder.decode((each J).self))
    }
  }

  /// Runs the statement and decodes its first row as the table and its joined tables, or
  /// returns nil when there is none.
  @inlinable
  public func fetchOne<J1: Table, each J: Table>(_ db: Database) throws -> (From.QueryOutput, J1.QueryOutput, repeat (each J).QueryOutput)?
  where Joins == (J1, repeat each J) {
    try StatementExecutor.fetchOne(self, in: db) { decoder in
      (try decoder.decode(From.self), try decoder.decode(J1.self), repeat try decoder.decode((each J).self))
    }
  }

  /// Runs the statement and returns a cursor that decodes rows as the table and its joined
  /// tables as it steps.
  public func fetchCursor<J1: Table, each J: Table>(
    _ db: Database
  ) throws -> QueryCursor<(From.QueryOutput, J1.QueryOutput, repeat (each J).QueryOutput)> where Joins == (J1, repeat each J) {
    QueryCursor(database: db, batches: isEmpty ? [] : StatementExecutor.batches(of: self, in: db)) {
      decoder in (try decoder.decode(From.self), try decoder.decode(J1.self), repeat try decoder.decode((each J).self))
    }
  }
}

extension Select {
  /// The number of rows the statement returns, counted by SQLite:
  /// `SELECT count(*) FROM … WHERE …` (see `Select.countingRows()`).
  @inlinable
  public func fetchCount(_ db: Database) throws -> Int {
    try countingRows().fetchOne(db) ?? 0
  }
}

extension Table {
  /// Every row of the table (under its default scope).
  @inlinable
  public static func fetchAll(_ db: Database) throws -> [QueryOutput] {
    try all.fetchAll(db)
  }

  /// A row of the table (under its default scope), or nil when there is none.
  @inlinable
  public static func fetchOne(_ db: Database) throws -> QueryOutput? {
    try all.fetchOne(db)
  }

  /// The number of rows in the table (under its default scope).
  @inlinable
  public static func fetchCount(_ db: Database) throws -> Int {
    try all.fetchCount(db)
  }

  /// A cursor over every row of the table (under its default scope).
  public static func fetchCursor(_ db: Database) throws -> QueryCursor<QueryOutput> {
    try all.fetchCursor(db)
  }
}

extension Database {
  /// Inserts the rows the closure lists, in order, one `INSERT` per run of rows of the same
  /// table.
  ///
  /// ```swift
  /// try database.write { db in
  ///   try db.seed {
  ///     Game.Draft(id: gameID, title: "Family gin rummy")
  ///     Player.Draft(gameID: gameID, name: "Blob", score: 20)
  ///   }
  /// }
  /// ```
  public func seed(@SeedsBuilder _ rows: () -> Seeds) throws {
    try rows().execute(self)
  }
}
