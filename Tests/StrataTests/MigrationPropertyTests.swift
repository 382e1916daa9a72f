import Foundation
import Strata
import StrataSchema
import Testing

/// Random sequences of model changes over random rows: after every migration the rows are
/// exactly what a reference, kept in Swift, says they must be; a migration that cannot keep a
/// value stops and leaves every row as it was. `MIGRATION_SEQUENCES=500` runs more.
@Suite struct MigrationPropertyTests {
  static let sequences = Int(ProcessInfo.processInfo.environment["MIGRATION_SEQUENCES"] ?? "") ?? 12
  static let steps = 12

  enum Kind: CaseIterable {
    case int, text

    var swift: String { self == .int ? "Int" : "String" }
    var fallback: Value { self == .int ? .int(7) : .text("d") }
  }

  enum Value: Equatable, CustomStringConvertible {
    case int(Int64)
    case text(String)

    var description: String {
      switch self {
      case .int(let value): "\(value)"
      case .text(let text): "'\(text)'"
      }
    }

    /// The value converted to `kind`, or nil when it would not come back exactly.
    func converted(to kind: Kind) -> Value? {
      switch (self, kind) {
      case (.int, .int), (.text, .text): self
      case (.int(let value), .text): .text(String(value))
      case (.text(let text), .int): Int64(text).flatMap { String($0) == text ? .int($0) : nil }
      }
    }
  }

  struct Column {
    var name: String
    var kind: Kind
    var isOptional: Bool
    var renamedFrom: String?
  }

  /// The model and the rows it must read.
  struct State {
    var columns: [Column] = [Column(name: "c0", kind: .int, isOptional: false)]
    var rows: [Int: [String: Value?]] = [:]
    var nextName = 1

    var source: String {
      var lines = ["struct Thing: Table {", "  let id: Int"]
      for column in columns {
        if let old = column.renamedFrom { lines.append("  // @Renamed(from: \"\(old)\")") }
        lines.append("  var \(column.name): \(column.kind.swift)\(column.isOptional ? "?" : " = \(column.kind.fallback.swift)")")
      }
      return (lines + ["}"]).joined(separator: "\n")
    }
  }

  @Test(arguments: 0..<sequences)
  func everyValueIsWhereTheModelSaysAfterEveryStep(seed: Int) throws {
    var random = SplitMix(seed: UInt64(seed) + 1000)
    let history = try ModelHistory()
    let database = try openDatabase(.inMemory)
    var state = State()
    try history.generate(state.source)
    try database.migrate(try history.migrations)

    func check(_ step: String) throws {
      let stored = try database.read { db in
        try Row.fetchAll(db, sql: "SELECT * FROM things ORDER BY id").map { row -> (Int, [String: Value?]) in
          var values: [String: Value?] = [:]
          for column in state.columns {
            switch row[column.name] as DatabaseValue {
            case let value where value.isNull: values[column.name] = .some(nil)
            case let value: values[column.name] = (Int64.fromDatabaseValue(value).map(Value.int) ?? String.fromDatabaseValue(value).map(Value.text))
            }
          }
          return (row["id"], values)
        }
      }
      #expect(Dictionary(stored, uniquingKeysWith: { first, _ in first }) == state.rows, "seed \(seed), after \(step)\n\(state.source)")
    }

    for _ in 0..<Self.steps {
      // Some rows change between migrations, as an app's do.
      try database.write { db in
        for _ in 0..<random.next(upTo: 3) {
          let id = state.rows.count + 1
          var values: [String: Value?] = [:]
          for column in state.columns {
            let value = column.isOptional && random.next(upTo: 3) == 0 ? nil : Self.randomValue(column.kind, &random)
            values[column.name] = .some(value)
          }
          try db.execute(
            sql: "INSERT INTO things (id\(state.columns.map { ", \"\($0.name)\"" }.joined())) VALUES (\(id)\(state.columns.map { column in ", \(values[column.name]!.map(\.sql) ?? "NULL")" }.joined()))")
          state.rows[id] = values
        }
      }
      var next = state
      var step = ""
      var allowDataLoss = false
      var stops = false
      switch random.next(upTo: 5) {
      case 0:
        let column = Column(name: "c\(next.nextName)", kind: Kind.allCases[random.next(upTo: 1)], isOptional: random.next(upTo: 1) == 0)
        next.nextName += 1
        next.columns.append(column)
        for id in next.rows.keys { next.rows[id]![column.name] = .some(column.isOptional ? nil : column.kind.fallback) }
        step = "add \(column.name)"
      case 1 where next.columns.count > 1:
        let removed = next.columns.remove(at: random.next(upTo: next.columns.count - 1))
        for id in next.rows.keys { next.rows[id]![removed.name] = nil }
        allowDataLoss = true
        step = "drop \(removed.name)"
      case 2:
        let index = random.next(upTo: next.columns.count - 1)
        let old = next.columns[index].name
        let new = "c\(next.nextName)"
        next.nextName += 1
        next.columns[index].name = new
        next.columns[index].renamedFrom = old
        for id in next.rows.keys { next.rows[id]![new] = next.rows[id]![old]!; next.rows[id]![old] = nil }
        step = "rename \(old) to \(new)"
      case 3 where next.columns.count > 1:
        let a = random.next(upTo: next.columns.count - 1)
        let b = (a + 1 + random.next(upTo: next.columns.count - 2)) % next.columns.count
        let (nameA, nameB) = (next.columns[a].name, next.columns[b].name)
        next.columns[a].name = nameB
        next.columns[a].renamedFrom = nameA
        next.columns[b].name = nameA
        next.columns[b].renamedFrom = nameB
        for id in next.rows.keys {
          let (valueA, valueB) = (next.rows[id]![nameA]!, next.rows[id]![nameB]!)
          next.rows[id]![nameB] = .some(valueA)
          next.rows[id]![nameA] = .some(valueB)
        }
        step = "swap \(nameA) and \(nameB)"
      default:
        let index = random.next(upTo: next.columns.count - 1)
        let column = next.columns[index]
        let kind: Kind = column.kind == .int ? .text : .int
        let isOptional = random.next(upTo: 1) == 0
        next.columns[index].kind = kind
        next.columns[index].isOptional = isOptional
        for id in next.rows.keys {
          guard let value = next.rows[id]![column.name]! else {
            next.rows[id]![column.name] = .some(isOptional ? nil : kind.fallback)
            continue
          }
          guard let converted = value.converted(to: kind) else {
            stops = true
            continue
          }
          next.rows[id]![column.name] = .some(converted)
        }
        step = "change \(column.name) to \(kind.swift)\(isOptional ? "?" : "")"
      }
      guard !step.isEmpty else { continue }

      try history.generate(next.source, allowDataLoss: allowDataLoss)
      if stops {
        #expect(throws: StrataError.self, "seed \(seed), \(step) should stop") { try database.migrate(try history.migrations) }
        try check("\(step), stopped")
        try history.discardNewest()
      } else {
        try database.migrate(try history.migrations)
        state = next
        try check(step)
        // The annotations may stay, and then go: neither asks for another migration.
        #expect(try history.generate(state.source) == nil, "seed \(seed), \(step) again")
        for index in state.columns.indices { state.columns[index].renamedFrom = nil }
        #expect(try history.generate(state.source) == nil, "seed \(seed), \(step) without its annotations")
      }
    }
  }

  static func randomValue(_ kind: Kind, _ random: inout SplitMix) -> Value {
    switch kind {
    case .int: .int([0, -1, 42, 7, 9_007_199_254_740_993, Int64.max, Int64.min][random.next(upTo: 6)])
    case .text: .text(["42", "007", "abc", "", "ünï", " 7", "-3", "it's"][random.next(upTo: 7)])
    }
  }
}

extension MigrationPropertyTests.Value {
  /// The value as a Swift literal.
  var swift: String {
    switch self {
    case .int(let value): "\(value)"
    case .text(let text): "\"\(text)\""
    }
  }

  /// The value as an SQL literal.
  var sql: String {
    switch self {
    case .int(let value): "\(value)"
    case .text(let text): "'\(text.replacingOccurrences(of: "'", with: "''"))'"
    }
  }
}
