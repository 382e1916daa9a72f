// Full-text search with SQLite's FTS5, in StructuredQueries' spelling:
//
//   ItemText
//     .where { $0.match(FullTextQuery.allTerms(in: searchText)) }
//     .order { $0.bm25([\.title: 10, \.body: 1]) }
//     .select { ($0.rowid, $0.title.highlight("<b>", "</b>"), $0.body.snippet("<b>", "</b>", "…", 12)) }
//
// The search pattern, the markers and the weights are bound values: a user's search text cannot
// change the statement. FTS5 reads the pattern in its own query syntax (`AND`, `OR`, `"phrases"`,
// `prefix*`, `column:`); `FullTextQuery` turns plain text into a pattern that only matches its
// words.

/// A model stored as an FTS5 virtual table: `struct ItemText: FTS5 { let rowid: Int; … }`.
///
/// Its `rowid` property is the row's key; with `// @FTS5(content: Item.self)`, the index covers
/// the rows of `Item` (the same rowid, columns of the same names) and the migrations keep it in
/// sync with triggers.
public protocol FTS5: Table {}

extension TableAlias: FTS5 where Base: FTS5 {}

/// The index on the optional side of an outer join: `$1.bm25()`, `$1.title.highlight(…)`. SQLite
/// runs FTS5's functions on rows the index has; for a row the join did not find, its SQLite
/// (3.40 on Linux) stops the statement with "no such cursor", so join an index that has a row for
/// every row it is joined to (an index with a content table does).
extension Optional: FTS5 where Wrapped: FTS5 {}

extension FTS5 {
  /// The index's hidden column of its own name, which `MATCH` and FTS5's functions take:
  /// `"itemTexts"`, or `"it"."itemTexts"` under an alias (the alias itself names no column).
  static var fullTextColumn: QueryFragment {
    tableAlias == nil ? QueryFragment(quoting: tableName) : QueryFragment(table: tableQualifier, column: tableName)
  }
}

extension TableColumnSet where QueryValue: FTS5 {
  /// `("itemTexts" MATCH ?)`: the rows that match `pattern`, in FTS5's query syntax.
  ///
  /// Pass text a user typed through ``FullTextQuery/allTerms(in:lastIsPrefix:)`` first: FTS5
  /// reads operators and quotes in the pattern, and a malformed one is an error.
  public func match(_ pattern: some StringProtocol) -> AnyQueryExpression<Bool> {
    let pattern = FullTextQuery.withoutNUL(String(pattern))
    return AnyQueryExpression((QueryValue.fullTextColumn + " MATCH " + pattern.queryFragment).sqliteOnly("full-text search (FTS5)").compound())
  }

  /// `"itemTexts"."rank"`: how well the row matches, smaller first (FTS5's `bm25()` by default);
  /// order by it ascending for the best matches first.
  public var rank: AnyQueryExpression<Double?> {
    AnyQueryExpression(QueryFragment(table: QueryValue.tableQualifier, column: "rank").sqliteOnly("full-text search (FTS5)"))
  }

  /// `bm25("itemTexts", ?, ?)`: the BM25 score of the match, smaller for better matches, with a
  /// weight per column (1 for a column not given).
  ///
  /// ```swift
  /// ItemText.where { $0.match("swift") }.order { $0.bm25([\.title: 10]) }
  /// ```
  public func bm25(_ weights: KeyValuePairs<PartialKeyPath<Self>, Double> = [:]) -> AnyQueryExpression<Double> {
    var arguments = [QueryValue.fullTextColumn]
    if !weights.isEmpty {
      var byColumn: [String: Double] = [:]
      for (keyPath, weight) in weights {
        if let column = self[keyPath: keyPath] as? any NamedColumn { byColumn[column.name] = weight }
      }
      arguments += Self.indexedColumnNames.map { (byColumn[$0] ?? 1).queryFragment }
    }
    return AnyQueryExpression(SQLOperator.call(QueryFragment(raw: "bm25"), arguments).sqliteOnly("the function bm25"))
  }

  /// The columns FTS5 indexes, in order: every column but `rowid`.
  static var indexedColumnNames: [String] {
    columnNames.filter { $0 != "rowid" }
  }
}

extension TableColumn where Root: FTS5, Value.Unwrapped == String {
  /// `("itemTexts" MATCH ?)` with `title:"pattern"`: rows whose column contains `pattern` as a
  /// phrase (quoted, so operators in it are words).
  public func match(_ pattern: some StringProtocol) -> AnyQueryExpression<Bool> {
    Root.columns.match("\(SQLQuoting.identifier(name)):\(FullTextQuery.phrase(String(pattern)))")
  }

  /// `highlight("itemTexts", 1, ?, ?)`: the column's text with each matched term between `open`
  /// and `close`.
  public func highlight(_ open: some StringProtocol, _ close: some StringProtocol) -> AnyQueryExpression<Value> {
    AnyQueryExpression(
      SQLOperator.sqliteFunction(
        "highlight", Root.fullTextColumn, columnNumber, String(open).queryFragment,
        String(close).queryFragment))
  }

  /// `snippet("itemTexts", 1, ?, ?, ?, ?)`: a fragment of the column's text of at most `tokens`
  /// words around the matches, matched terms between `open` and `close`, `ellipsis` where the
  /// text was cut.
  public func snippet(
    _ open: some StringProtocol, _ close: some StringProtocol, _ ellipsis: some StringProtocol, _ tokens: Int
  ) -> AnyQueryExpression<Value> {
    AnyQueryExpression(
      SQLOperator.sqliteFunction(
        "snippet", Root.fullTextColumn, columnNumber, String(open).queryFragment,
        String(close).queryFragment, String(ellipsis).queryFragment, tokens.queryFragment))
  }

  /// The column's position among the indexed columns, as FTS5's auxiliary functions take it.
  private var columnNumber: QueryFragment {
    QueryFragment(raw: String(Root.TableColumns.indexedColumnNames.firstIndex(of: name) ?? -1))
  }
}

/// A column that knows its name, whatever its table and type, for APIs that take key paths to
/// several columns.
protocol NamedColumn {
  var name: String { get }
}

extension TableColumn: NamedColumn {}
