// What the run left: each device's writes (with their stamps), how far the server confirmed
// them, and its rows; the server's rows, the rows it keeps waiting, and who may read what.
import Foundation
import GRDB
import StrataSQL

/// A row of a synced table, its values as text (NULL as nil), by column.
typealias Values = [String: String?]

/// The harness's synced tables and their columns (the key, `id`, apart), in the newest schema,
/// to which every device is updated before the check.
enum HarnessTables {
  static let folders = ["name", "color", "slug", "rank", "visits", "labels", "summary"]
  /// Columns renamed since a schema devices ran: the writes recorded under the former name are
  /// writes of the column.
  static let renamed = ["folders": ["title": "name"]]
  static let notes = ["folderID", "text", "position"]
  static let all = [("folders", folders), ("notes", notes)]
}

/// One recorded write.
struct Write {
  var id: Int
  var device: Int
  var operation: String
  var table: String
  var key: String
  var column: String?
  var value: String?
  var clock: Int64
  var replica: String

  /// Later writes win: the stamp's order (clock, then replica id).
  func isLater(than other: Write) -> Bool {
    (clock, replica) > (other.clock, other.replica)
  }
}

/// A device's side of the history.
struct DeviceHistory {
  var index: Int
  var user: String
  var writes: [Write]
  var acknowledged: Int
  /// Per table, the rows by key.
  var rows: [String: [String: Values]]
  var waiting: [String]

  init(index: Int, user: String, path: String) throws {
    self.index = index
    self.user = user
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    (writes, acknowledged, rows, waiting) = try queue.read { db in
      let writes = try Row.fetchAll(db, sql: "SELECT * FROM deviceWrites ORDER BY id").map { row in
        let table: String = row["tableName"]
        let column: String? = row["columnName"]
        return Write(
          id: row["id"], device: index, operation: row["operation"], table: table, key: row["rowKey"],
          column: column.map { HarnessTables.renamed[table]?[$0] ?? $0 }, value: row["value"], clock: row["clock"], replica: row["replica"])
      }
      let acknowledged = try Int.fetchOne(db, sql: "SELECT coalesce(max(lastWrite), 0) FROM deviceAcks") ?? 0
      var rows: [String: [String: Values]] = [:]
      for (table, columns) in HarnessTables.all {
        let select = (["id"] + columns).map { "CAST(\(SQLQuoting.identifier($0)) AS TEXT)" }.joined(separator: ", ")
        for row in try Row.fetchAll(db, sql: "SELECT \(select) FROM \(SQLQuoting.identifier(table))") {
          var values: Values = [:]
          for (index, column) in columns.enumerated() { values[column] = row[index + 1] as String? }
          rows[table, default: [:]][row[0]] = values
        }
      }
      let waiting = try String.fetchAll(db, sql: "SELECT table_name || '/' || row_key || ': ' || reason FROM strata_sync_waiting")
      return (writes, acknowledged, rows, waiting)
    }
  }
}

/// The server's side.
struct ServerHistory {
  var rows: [String: [String: Values]] = [:]
  var waiting: [String: String] = [:]
  /// Per user, the folders they may read.
  var readable: [String: Set<String>] = [:]
  /// The owner of each folder (a record): only they delete it.
  var owners: [String: String] = [:]

  init(postgres: PostgresProcess, database: String) throws {
    for (table, columns) in HarnessTables.all {
      let select = (["id"] + columns).map { "\(SQLQuoting.identifier($0))::text AS \(SQLQuoting.identifier($0))" }.joined(separator: ", ")
      let json = try postgres.psql("SELECT coalesce(json_agg(t), '[]') FROM (SELECT \(select) FROM \(SQLQuoting.identifier(table))) t", database: database)
      let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
      for object in decoded {
        guard let key = object["id"] as? String else { continue }
        var values: Values = [:]
        for column in columns { values[column] = object[column] as? String }
        rows[table, default: [:]][key] = values
      }
    }
    for line in try postgres.psql("SELECT table_name || '/' || row_key || chr(9) || waiting FROM strata_sync.rows WHERE waiting IS NOT NULL", database: database)
      .split(separator: "\n")
    {
      let parts = line.split(separator: "\t", maxSplits: 1)
      if parts.count == 2 { waiting[String(parts[0])] = String(parts[1]) }
    }
    let readers = try postgres.psql(
      """
      SELECT owner || chr(9) || root_key FROM strata_sync.roots WHERE root_table = 'folders'
      UNION ALL SELECT user_id || chr(9) || root_key FROM strata_sync.shares WHERE root_table = 'folders' AND accepted_seq IS NOT NULL
      """, database: database)
    for line in try postgres.psql("SELECT root_key || chr(9) || owner FROM strata_sync.roots WHERE root_table = 'folders'", database: database)
      .split(separator: "\n")
    {
      let parts = line.split(separator: "\t")
      if parts.count == 2 { owners[String(parts[0])] = String(parts[1]) }
    }
    for line in readers.split(separator: "\n") {
      let parts = line.split(separator: "\t")
      if parts.count == 2 { readable[String(parts[0]), default: []].insert(String(parts[1])) }
    }
  }

  /// Leaves out the rows `user` may read (the latency probe's, which no device recorded).
  mutating func leaveOut(user: String) {
    let folders = readable[user] ?? []
    rows["folders"] = rows["folders"]?.filter { !folders.contains($0.key) }
    rows["notes"] = rows["notes"]?.filter { !folders.contains(($0.value["folderID"] ?? nil) ?? "") }
    readable[user] = nil
  }

  /// The rows `user` may read: the readable folders and their notes.
  func rows(readableBy user: String) -> [String: [String: Values]] {
    let folders = readable[user] ?? []
    return [
      "folders": (rows["folders"] ?? [:]).filter { folders.contains($0.key) },
      "notes": (rows["notes"] ?? [:]).filter { folders.contains(($0.value["folderID"] ?? nil) ?? "") },
    ]
  }
}
