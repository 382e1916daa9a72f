/// The tables a full-text index Strata declares keeps beside its virtual table.
public enum FullTextIndexTables {
  /// The table where the index's triggers keep the indexed values of rows a `REPLACE` deletes,
  /// for the time of one statement: it goes with the virtual table, as FTS5's shadow tables do,
  /// and is empty between statements, so that neither the schema nor the rows of an app are in it.
  public static func replacedRows(of index: String) -> String {
    index + "_replaced"
  }
}
