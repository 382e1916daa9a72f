/// An enum stored in the columns of the table that has it as a property:
///
/// ```swift
/// struct Attachment: Table {
///   let id: Int
///   var kind: Kind
///
///   enum Kind: Selection {
///     case link(URL)
///     case note(String)
///     case image(Attachment.Image)   // a Selection struct: its columns
///   }
///   struct Image: Selection { var caption = ""; var url: URL }
/// }
/// // CREATE TABLE "attachments" ("id" INTEGER PRIMARY KEY AUTOINCREMENT,
/// //   "link" TEXT, "note" TEXT, "caption" TEXT, "url" TEXT) STRICT
/// ```
///
/// Each case's value has columns of its own, NULL in the rows of every other case; a row
/// decodes as the first case whose columns are not all NULL. The generator writes this
/// conformance: the cases as the members of `TableColumns` (`$0.kind.note`, `$0.kind.image`),
/// `Columns.note(…)` to select one case from expressions, and the encoding that writes the
/// case's columns and NULLs.
public protocol EnumSelection: Table, Selection {}

/// A `Selection` struct of columns, which can be the table of a common table expression and a
/// column group: a property of a table stored as the struct's columns (`var timestamps:
/// Timestamps`). The generator writes this conformance.
///
/// It tells a struct's group from an ``EnumSelection``'s in an update: a struct's columns are
/// assigned one by one (``GroupUpdates``), an enum's cases only whole (``CaseUpdates``).
public protocol GroupSelection: Table, Selection {}

extension ResultColumn {
  /// `NULL AS "name"` for each name: the columns of an enum's other cases in a selection of one.
  public static func nulls(named names: [String]) -> [ResultColumn] {
    names.map { ResultColumn(QueryFragment(raw: "NULL"), alias: $0) }
  }

  /// `? AS "column"` for each column of a row: a value of a table or group type as selected
  /// columns (`Count(value: 1).union(…)`, `Kind.Columns.image(Image(…))`).
  public static func values<Row: Table>(of row: Row) -> [ResultColumn] {
    var bindings: [QueryBinding] = []
    row.encode(into: &bindings)
    return zip(bindings, Row.TableColumns.writableColumnNames).map { binding, name in
      ResultColumn(QueryFragment(binding: binding), alias: name)
    }
  }
}
