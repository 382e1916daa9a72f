import Foundation
import Strata
import StrataSync
import Testing

/// Replicas that write at random and exchange changesets in random orders, with duplicates,
/// drops and late deliveries, then heal: every replica must hold the same rows, byte for byte,
/// and those rows must be what a reference model of the merge rules makes of every write.
///
/// The reference knows nothing of version vectors: it keeps, per replica and per column, the
/// set of writes the replica has seen (a write sees what its replica had seen; an apply adds
/// what the sender had seen of the rows it sent), and resolves each column from the writes no
/// other write saw. `STRATA_SYNC_STEPS` runs longer (the default keeps `swift test` short).
@Suite struct ConvergenceTests {
  static let steps = ProcessInfo.processInfo.environment["STRATA_SYNC_STEPS"].flatMap(Int.init) ?? 500

  @Test(arguments: [(seed: UInt64(1), replicas: 3), (2, 4), (3, 5), (4, 3), (5, 4), (6, 5), (7, 3), (8, 4)])
  func replicasConverge(seed: UInt64, replicas: Int) throws {
    try withTemporaryFolder { folder in
      var run = try ConvergenceRun(folder: folder, replicas: replicas, seed: seed)
      for _ in 0..<Self.steps { try run.step() }
      try run.heal()
      let expected = run.reference.expectedContents()
      // The run did what it is for: rows survived, and some columns were written concurrently.
      #expect(expected.count > 5)
      #expect(try run.replicas[0].sync.conflicts().contains { if case .concurrentWrites = $0.kind { true } else { false } })
      for replica in run.replicas {
        #expect(try replica.contents() == expected, "seed \(seed): a replica differs from the reference model")
      }
    }
  }
}

/// A write as the reference model sees it.
struct ReferenceWrite {
  var id: Int
  var stamp: SyncStamp
  var value: StoredValue
}

/// The merge rules, computed from every write and what each writer had seen.
struct ReferenceModel {
  /// A column of a row: (table, key, column).
  struct Cell: Hashable { var table: String; var key: String; var column: String }

  var writes: [Cell: [ReferenceWrite]] = [:]
  /// What each write had seen of its cell: the ids of earlier writes.
  var context: [Int: Set<Int>] = [:]
  var inserted: [String: (table: String, stamp: SyncStamp)] = [:]
  var deleted: Set<String> = []
  var counterIncrements: [Cell: Int64] = [:]
  var nextID = 0

  static let boardColumns = ["title", "slug", "rank", "likes", "tags", "notes"]
  static let cardColumns = ["boardID", "text", "position"]

  mutating func record(_ cell: Cell, stamp: SyncStamp, value: StoredValue, seen: Set<Int>) -> Int {
    nextID += 1
    writes[cell, default: []].append(ReferenceWrite(id: nextID, stamp: stamp, value: value))
    context[nextID] = seen
    return nextID
  }

  func value(of cell: Cell) -> StoredValue {
    let all = writes[cell] ?? []
    let seenByOthers = Set(all.flatMap { context[$0.id] ?? [] })
    let maximal = all.filter { !seenByOthers.contains($0.id) }.sorted { $0.stamp < $1.stamp }
    let values = maximal.map(\.value)
    switch cell.column {
    case "likes":
      guard case .integer(let initial) = all.min(by: { $0.stamp < $1.stamp })?.value ?? .integer(0) else { return .null }
      return .integer(initial + (counterIncrements[cell] ?? 0))
    case "rank": return values.max { compare($0, $1) } ?? .null
    case "tags":
      var seen: Set<String> = []
      var elements: [String] = []
      for case .text(let text) in values {
        let array = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]) ?? []
        for element in array where seen.insert(element).inserted { elements.append("\"\(element)\"") }
      }
      return values.count > 1 ? .text("[" + elements.joined(separator: ",") + "]") : values.last ?? .null
    case "notes":
      let texts = values.compactMap { if case .text(let text) = $0 { text } else { nil } }
      return .text(Board.mergeNotes(texts))
    default: return values.last ?? .null
    }
  }

  private func compare(_ a: StoredValue, _ b: StoredValue) -> Bool {
    if case .integer(let x) = a, case .integer(let y) = b { return x < y }
    return false
  }

  /// The rows every replica should hold: living boards, the first inserted keeping a slug;
  /// cards whose board is there.
  func expectedContents() -> [String] {
    var boards: [String: [StoredValue]] = [:]
    for (key, row) in inserted where row.table == "boards" && !deleted.contains(key) {
      boards[key] = Self.boardColumns.map { value(of: Cell(table: "boards", key: key, column: $0)) }
    }
    var placed: [String: [StoredValue]] = [:]
    for (key, values) in boards.sorted(by: { inserted[$0.key]!.stamp < inserted[$1.key]!.stamp }) {
      if values[1] != .null, placed.values.contains(where: { $0[1] == values[1] }) { continue }
      placed[key] = values
    }
    var lines = placed.sorted { $0.key < $1.key }.map { key, values in
      "boards " + ([StoredValue.text(key)] + values).map(describe).joined(separator: ", ")
    }
    for (key, row) in inserted.sorted(by: { $0.key < $1.key }) where row.table == "cards" && !deleted.contains(key) {
      let values = Self.cardColumns.map { value(of: Cell(table: "cards", key: key, column: $0)) }
      guard case .text(let board) = values[0], placed[board] != nil else { continue }
      lines.append("cards " + ([StoredValue.text(key)] + values).map(describe).joined(separator: ", "))
    }
    return lines
  }
}

/// One run: replicas, the changesets in flight, and the reference.
struct ConvergenceRun {
  var replicas: [TestReplica]
  var reference = ReferenceModel()
  /// Per replica, per cell, the writes it has seen.
  var known: [[ReferenceModel.Cell: Set<Int>]]
  /// Per (sender, receiver), the cursor of the last changeset the receiver applied.
  var acknowledged: [[SyncCursor]]
  /// Changesets sent and not yet delivered, with what the sender had seen of their rows.
  var inFlight: [(from: Int, to: Int, bytes: [UInt8], seen: [ReferenceModel.Cell: Set<Int>])] = []
  var random: SeededGenerator
  var counter = 0

  init(folder: URL, replicas count: Int, seed: UInt64) throws {
    replicas = try (0..<count).map { try TestReplica(in: folder, name: "r\($0)") }
    known = Array(repeating: [:], count: count)
    acknowledged = Array(repeating: Array(repeating: .start, count: count), count: count)
    random = SeededGenerator(seed: seed)
  }

  mutating func step() throws {
    let replica = Int.random(in: 0..<replicas.count, using: &random)
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<60: try write(at: replica)
    case 60..<85: send(from: replica, to: otherThan(replica))
    default: try deliver()
    }
  }

  func otherThan(_ replica: Int) -> Int {
    var generator = random
    let other = Int.random(in: 0..<(replicas.count - 1), using: &generator)
    return other >= replica ? other + 1 : other
  }

  /// Delivers everything until every replica has every change.
  mutating func heal() throws {
    while !inFlight.isEmpty { try deliver() }
    for _ in 0..<3 {
      for from in replicas.indices {
        for to in replicas.indices where to != from {
          send(from: from, to: to)
          try deliver(index: inFlight.count - 1)
        }
      }
    }
  }

  // MARK: Writes

  private mutating func stamp(_ replica: Int, table: String, key: String, column: String?) throws -> SyncStamp {
    try replicas[replica].database.read { db in
      let row = column == nil
        ? try Row.fetchOne(db, sql: "SELECT clock, replica FROM strata_sync_rows WHERE table_name = ? AND row_key = ?", arguments: [table, key])
        : try Row.fetchOne(
          db, sql: "SELECT clock, replica FROM strata_sync_cells WHERE table_name = ? AND row_key = ? AND column_name = ?",
          arguments: [table, key, column])
      let found = try #require(row)
      return SyncStamp(clock: found["clock"], replica: found["replica"])
    }
  }

  private mutating func recordWrite(at replica: Int, table: String, key: String, column: String, value: StoredValue, stamp: SyncStamp) {
    let cell = ReferenceModel.Cell(table: table, key: key, column: column)
    let seen = known[replica][cell] ?? []
    let id = reference.record(cell, stamp: stamp, value: value, seen: seen)
    known[replica][cell] = seen.union([id])
  }

  private func livingRows(_ table: String, at replica: Int) throws -> [Row] {
    try replicas[replica].database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") }
  }

  private mutating func write(at replica: Int) throws {
    counter += 1
    let database = replicas[replica].database
    let boards = try livingRows("boards", at: replica)
    let cards = try livingRows("cards", at: replica)
    let choice = Int.random(in: 0..<100, using: &random)
    if choice < 15 || boards.isEmpty {
      let key = UUID().uuidString.lowercased()
      let slug: StoredValue = Bool.random(using: &random) ? .text("s\(Int.random(in: 0..<4, using: &random))") : .null
      let values: [StoredValue] = [.text("b\(counter)"), slug, .integer(Int64.random(in: 0..<50, using: &random)), .integer(5), .text("[]"), .text("")]
      do {
        try database.write { db in
          try db.execute(
            sql: "INSERT INTO boards (id, title, slug, rank, likes, tags, notes) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: StatementArguments([key] + values.map(\.databaseValue)))
        }
      } catch {
        return  // The slug is taken here: a local write the database refuses is no write.
      }
      let stamp = try stamp(replica, table: "boards", key: key, column: nil)
      reference.inserted[key] = ("boards", stamp)
      for (column, value) in zip(ReferenceModel.boardColumns, values) {
        recordWrite(at: replica, table: "boards", key: key, column: column, value: value, stamp: stamp)
      }
    } else if choice < 25 {
      let board: String = boards[Int.random(in: 0..<boards.count, using: &random)]["id"]
      let key = UUID().uuidString.lowercased()
      let values: [StoredValue] = [.text(board), .text("c\(counter)"), .integer(Int64.random(in: 0..<9, using: &random))]
      try database.write { db in
        try db.execute(
          sql: "INSERT INTO cards (id, boardID, text, position) VALUES (?, ?, ?, ?)",
          arguments: StatementArguments([key] + values.map(\.databaseValue)))
      }
      let stamp = try stamp(replica, table: "cards", key: key, column: nil)
      reference.inserted[key] = ("cards", stamp)
      for (column, value) in zip(ReferenceModel.cardColumns, values) {
        recordWrite(at: replica, table: "cards", key: key, column: column, value: value, stamp: stamp)
      }
    } else if choice < 32 {
      let table = cards.isEmpty || Bool.random(using: &random) ? "boards" : "cards"
      let rows = table == "boards" ? boards : cards
      let key: String = rows[Int.random(in: 0..<rows.count, using: &random)]["id"]
      // Deleting a board deletes its cards here (ON DELETE CASCADE), which records their deletes.
      let cascaded = table == "boards" ? cards.filter { ($0["boardID"] as String?) == key }.map { $0["id"] as String } : []
      try database.write { db in try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [key]) }
      reference.deleted.formUnion([key] + cascaded)
    } else if choice < 45, !cards.isEmpty {
      let card = cards[Int.random(in: 0..<cards.count, using: &random)]
      let key: String = card["id"]
      let (column, value): (String, StoredValue) =
        Bool.random(using: &random)
        ? ("text", .text("c\(counter)")) : ("position", .integer(Int64.random(in: 0..<9, using: &random)))
      try update("cards", key: key, column: column, value: value, at: replica)
    } else {
      let board = boards[Int.random(in: 0..<boards.count, using: &random)]
      let key: String = board["id"]
      switch Int.random(in: 0..<5, using: &random) {
      case 0: try update("boards", key: key, column: "title", value: .text("t\(counter)"), at: replica)
      case 1: try update("boards", key: key, column: "rank", value: .integer(Int64.random(in: 0..<100, using: &random)), at: replica)
      case 2:
        let increment = Int64.random(in: -3...5, using: &random)
        guard increment != 0 else { return }
        let likes: Int64 = board["likes"]
        try update("boards", key: key, column: "likes", value: .integer(likes + increment), at: replica)
        reference.counterIncrements[ReferenceModel.Cell(table: "boards", key: key, column: "likes"), default: 0] += increment
      case 3:
        let tags: String = board["tags"]
        var array = (try JSONSerialization.jsonObject(with: Data(tags.utf8)) as? [String]) ?? []
        array.append("g\(Int.random(in: 0..<6, using: &random))")
        if array.count > 1, Bool.random(using: &random) { array.removeFirst() }
        let text = "[" + array.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        try update("boards", key: key, column: "tags", value: .text(text), at: replica)
      default: try update("boards", key: key, column: "notes", value: .text("n\(counter % 7)"), at: replica)
      }
    }
  }

  private mutating func update(_ table: String, key: String, column: String, value: StoredValue, at replica: Int) throws {
    let before = try replicas[replica].database.read { db in
      try Row.fetchOne(db, sql: "SELECT \(column) FROM \(table) WHERE id = ?", arguments: [key]).map { $0[0] as DatabaseValue }
    }
    guard before != value.databaseValue else { return }
    try replicas[replica].database.write { db in
      try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE id = ?", arguments: [value.databaseValue, key])
    }
    let stamp = try stamp(replica, table: table, key: key, column: column)
    if column != "likes" {
      recordWrite(at: replica, table: table, key: key, column: column, value: value, stamp: stamp)
    }
  }

  // MARK: Exchanges

  private mutating func send(from: Int, to: Int) {
    guard let changeset = try? replicas[from].sync.changes(since: acknowledged[from][to]) else { return }
    var seen: [ReferenceModel.Cell: Set<Int>] = [:]
    for row in changeset.rows {
      guard case .text(let key) = row.key else { continue }
      let columns = row.table == "boards" ? ReferenceModel.boardColumns : ReferenceModel.cardColumns
      for column in columns {
        let cell = ReferenceModel.Cell(table: row.table, key: key, column: column)
        seen[cell] = known[from][cell] ?? []
      }
    }
    inFlight.append((from, to, changeset.encoded(), seen))
  }

  private mutating func deliver(index: Int? = nil) throws {
    guard !inFlight.isEmpty else { return }
    let position = index ?? Int.random(in: 0..<inFlight.count, using: &random)
    let message = inFlight[position]
    let fate = index == nil ? Int.random(in: 0..<10, using: &random) : 9
    // One in ten is lost, one in ten delivered and kept in flight to arrive again.
    if fate != 1 { inFlight.remove(at: position) }
    guard fate != 0 else { return }
    let changeset = try Changeset(decoding: message.bytes)
    try replicas[message.to].sync.apply(changeset)
    for (cell, seen) in message.seen { known[message.to][cell, default: []].formUnion(seen) }
    acknowledged[message.from][message.to] = max(acknowledged[message.from][message.to], changeset.cursor)
  }
}

/// A random number generator that repeats from a seed (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
