import StrataSQL

/// The SQL that records the writes to a synced table: sync's tables (made once, by the first
/// migration that syncs a table), and the triggers on the table.
///
/// Every recorded write is stamped with the replica's hybrid logical clock, computed in the
/// statement that records it: the largest of the wall clock in milliseconds shifted left by
/// `SyncTables.counterBits` and one more than every stamp the replica has recorded (the `seq`
/// indexes keep that a lookup), so that stamps only grow, even when the wall clock steps back, and
/// come after every write the replica has seen (an apply records what it merged under a stamp
/// past every clock in it). The same number orders the replica's own changes for
/// `changes(since:)`.
///
/// An insert or delete stamps the row's life (`strata_sync_rows`); column stamps older than the
/// row's life belong to an earlier life and mean nothing (a `REPLACE` makes a new life without a
/// delete). An update stamps each column whose value changed (`strata_sync_cells`), with a version
/// vector of the writes it replaces, and forgets the concurrent values it settles
/// (`strata_sync_siblings`); a counter records each replica's total increments instead. A delete
/// forgets the row's columns, concurrent values included.
extension SQLRenderer {
  static func createSyncCapture(_ capture: SyncCapture) -> [String] {
    let q = SQLQuoting.identifier
    let table = q(capture.table)
    let name = SQLQuoting.string(capture.table)
    let key = q(capture.key)
    let replica = q(SyncTables.replica)
    let rows = q(SyncTables.rows)
    let cells = q(SyncTables.cells)
    let siblings = q(SyncTables.siblings)
    let held = q(SyncTables.held)
    let waiting = q(SyncTables.waiting)
    // The stamp of the write being recorded, as a one-row table `t` with the replica's id.
    // (SQLite flattens it into the statement and computes it once per mention; keeping it
    // apart with `LIMIT 1` measured slower, for the ephemeral table it makes per write.)
    let stamp = """
      (
            SELECT max(
              \(SyncTables.wallClockMilliseconds) << \(SyncTables.counterBits),
              coalesce((SELECT max("seq") FROM \(rows)), 0) + 1,
              coalesce((SELECT max("seq") FROM \(cells)), 0) + 1) AS "tick",
              "replica"
            FROM \(replica)) AS t
      """
    let recording = "(SELECT \"applying\" FROM \(replica)) = 0"
    func forget(_ from: String, row: String) -> String {
      "DELETE FROM \(from) WHERE \"table_name\" = \(name) AND \"row_key\" = \(row).\(key);"
    }
    func stampRow(_ row: String, deleted: Bool) -> String {
      "INSERT OR REPLACE INTO \(rows) (\"table_name\", \"row_key\", \"clock\", \"replica\", \"deleted\", \"seq\")\n"
        + "    SELECT \(name), \(row).\(key), t.\"tick\", t.\"replica\", \(deleted ? 1 : 0), t.\"tick\" FROM \(stamp);"
    }
    var statements = [
      """
      CREATE TABLE IF NOT EXISTS \(replica) (
        "only" INTEGER PRIMARY KEY CHECK ("only" = 1),
        "replica" TEXT NOT NULL,
        "applying" INTEGER NOT NULL
      ) STRICT;
      """,
      "INSERT OR IGNORE INTO \(replica) VALUES (1, lower(hex(randomblob(16))), 0);",
      """
      CREATE TABLE IF NOT EXISTS \(rows) (
        "table_name" TEXT NOT NULL,
        "row_key" ANY NOT NULL,
        "clock" INTEGER NOT NULL,
        "replica" TEXT NOT NULL,
        "deleted" INTEGER NOT NULL,
        "seq" INTEGER NOT NULL,
        PRIMARY KEY ("table_name", "row_key")
      ) STRICT, WITHOUT ROWID;
      """,
      "CREATE INDEX IF NOT EXISTS \(q(SyncTables.rows + "_seq")) ON \(rows) (\"seq\");",
      """
      CREATE TABLE IF NOT EXISTS \(cells) (
        "table_name" TEXT NOT NULL,
        "row_key" ANY NOT NULL,
        "column_name" TEXT NOT NULL,
        "clock" INTEGER NOT NULL,
        "replica" TEXT NOT NULL,
        "versions" TEXT NOT NULL,
        "parts" TEXT,
        "seq" INTEGER NOT NULL,
        PRIMARY KEY ("table_name", "row_key", "column_name")
      ) STRICT, WITHOUT ROWID;
      """,
      "CREATE INDEX IF NOT EXISTS \(q(SyncTables.cells + "_seq")) ON \(cells) (\"seq\");",
      """
      CREATE TABLE IF NOT EXISTS \(siblings) (
        "table_name" TEXT NOT NULL,
        "row_key" ANY NOT NULL,
        "column_name" TEXT NOT NULL,
        "clock" INTEGER NOT NULL,
        "replica" TEXT NOT NULL,
        "versions" TEXT NOT NULL,
        "value" ANY,
        PRIMARY KEY ("table_name", "row_key", "column_name", "clock", "replica")
      ) STRICT, WITHOUT ROWID;
      """,
      """
      CREATE TABLE IF NOT EXISTS \(held) (
        "table_name" TEXT NOT NULL,
        "row_key" ANY NOT NULL,
        "column_name" TEXT NOT NULL,
        "value" ANY,
        PRIMARY KEY ("table_name", "row_key", "column_name")
      ) STRICT, WITHOUT ROWID;
      """,
      """
      CREATE TABLE IF NOT EXISTS \(waiting) (
        "table_name" TEXT NOT NULL,
        "row_key" ANY NOT NULL,
        "reason" TEXT NOT NULL,
        PRIMARY KEY ("table_name", "row_key")
      ) STRICT, WITHOUT ROWID;
      """,
    ]
    func trigger(_ event: String, _ head: String, _ body: [String]) -> String {
      "CREATE TRIGGER \(q(SyncTables.trigger(capture.table, event))) \(head) BEGIN\n"
        + body.map { "  " + $0 }.joined(separator: "\n") + "\nEND;"
    }
    statements.append(
      trigger(
        "insert", "AFTER INSERT ON \(table) WHEN \(recording)",
        [stampRow("NEW", deleted: false)]))
    statements.append(
      trigger(
        "delete", "AFTER DELETE ON \(table) WHEN \(recording)",
        [stampRow("OLD", deleted: true), forget(cells, row: "OLD"), forget(siblings, row: "OLD")]))
    // A row's key is what every replica knows it by; a new key is a new row.
    statements.append(
      trigger(
        "key", "BEFORE UPDATE OF \(key) ON \(table) WHEN NEW.\(key) IS NOT OLD.\(key)",
        ["SELECT RAISE(ABORT, \(SQLQuoting.string("the key of a synced row cannot change; insert a new row of \(capture.table) instead")));"]))
    for column in capture.columns {
      let c = q(column)
      let columnName = SQLQuoting.string(column)
      let ownEntry = "'$.\"' || t.\"replica\" || '\"'"
      // The column's stamp, unless it is from the row's earlier life (a counter's record of the
      // inserter's share alone is as old as the life itself).
      let cell =
        "\(cells) AS c ON c.\"table_name\" = \(name) AND c.\"row_key\" = NEW.\(key) AND c.\"column_name\" = \(columnName) AND c.\"clock\" >= r.\"clock\""
      let record: String
      if capture.counters.contains(column) {
        // The replica's total increments, beside the others'; the inserting replica's initial
        // value counts as its own until the first update records it.
        record = """
          INSERT OR REPLACE INTO \(cells) ("table_name", "row_key", "column_name", "clock", "replica", "versions", "parts", "seq")
              SELECT \(name), NEW.\(key), \(columnName), t."tick", t."replica", '{}',
                json_set(p."parts", \(ownEntry), json_array(t."tick", coalesce(json_extract(p."parts", \(ownEntry) || '[1]'), 0) + (NEW.\(c) - OLD.\(c)))),
                t."tick"
              FROM \(stamp),
                (SELECT coalesce(c."parts", json_object(r."replica", json_array(r."clock", OLD.\(c)))) AS "parts"
                  FROM \(rows) AS r LEFT JOIN \(cell)
                  WHERE r."table_name" = \(name) AND r."row_key" = NEW.\(key)) AS p;
          """
      } else {
        // The writes it replaces: the column's version vector, or the row's insert when the
        // column has not been written since.
        record = """
          INSERT OR REPLACE INTO \(cells) ("table_name", "row_key", "column_name", "clock", "replica", "versions", "parts", "seq")
              SELECT \(name), NEW.\(key), \(columnName), t."tick", t."replica",
                json_set(coalesce(c."versions", json_object(r."replica", r."clock")), \(ownEntry), t."tick"), NULL, t."tick"
              FROM \(stamp)
              JOIN \(rows) AS r ON r."table_name" = \(name) AND r."row_key" = NEW.\(key)
              LEFT JOIN \(cell);
          """
      }
      statements.append(
        trigger(
          "update_" + column, "AFTER UPDATE OF \(c) ON \(table) WHEN NEW.\(c) IS NOT OLD.\(c) AND \(recording)",
          [
            record,
            "DELETE FROM \(siblings) WHERE \"table_name\" = \(name) AND \"row_key\" = NEW.\(key) AND \"column_name\" = \(columnName);",
          ]))
    }
    // The rows the table has when it starts syncing are recorded as inserted now.
    statements.append(
      "INSERT OR IGNORE INTO \(rows) (\"table_name\", \"row_key\", \"clock\", \"replica\", \"deleted\", \"seq\")\n"
        + "  SELECT \(name), \(table).\(key), t.\"tick\", t.\"replica\", 0, t.\"tick\" FROM \(table), \(stamp);")
    return statements
  }
}
