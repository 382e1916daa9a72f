import Foundation
import Testing

@testable import StrataSchema

/// Random schemas in the shapes real databases have: STRICT or not, WITHOUT ROWID, every kind of
/// key, self-references, types, defaults, references with actions, collations, CHECKs, UNIQUE
/// constraints, indexes plain, unique, partial and odd-named, quotes in names, views and
/// triggers. Whatever the import makes of each, the planner finds nothing to add, with Swift
/// models and with a schema file. (2,000 seeds pass; the suite runs 100.)
@Suite struct ImportFuzzTests {
  struct Schema {
    var random: RobustnessTests.SplitMix

    mutating func pick<T>(_ options: [T]) -> T { options.randomElement(using: &random)! }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func names(_ count: Int, prefix: String) -> [String] {
      let words = ["id", "name", "title", "Score", "created at", "default", "x", "userID", "2fa", "kind", "ID", "rowid2", "it's \"q\"", "Draft", "self"]
      var result: [String] = []
      while result.count < count {
        let name = pick(words) + (chance(40) ? String(Int.random(in: 0..<9, using: &random)) : "")
        if !result.contains(where: { $0.lowercased() == name.lowercased() }) { result.append(name) }
      }
      return result
    }

    /// A name inside double quotes, its quotes doubled.
    func quoted(_ name: String) -> String { name.replacingOccurrences(of: "\"", with: "\"\"") }

    mutating func sql() -> String {
      var statements: [String] = []
      var tables: [(name: String, key: String?, keyType: String)] = []
      for index in 0..<Int.random(in: 1...5, using: &random) {
        let table = pick(["players", "player", "team member", "Items", "tags", "log", "a \"b\"", "class"]) + "\(index)"
        let strict = chance(60)
        let types = strict ? ["INTEGER", "TEXT", "REAL", "BLOB", "ANY"] : ["INTEGER", "TEXT", "REAL", "BLOB", "VARCHAR(20)", "DATETIME", "BOOLEAN", "NUMERIC", ""]
        let columns = names(Int.random(in: 1...5, using: &random), prefix: "c")
        var definitions: [String] = []
        var key: String?
        var keyType = "INTEGER"
        let composite = columns.count >= 2 && chance(15)
        for (position, column) in columns.enumerated() {
          var type = pick(types)
          var parts = ["\"\(quoted(column))\""]
          if position == 0, !composite, chance(80) {
            switch pick([0, 1, 2]) {
            case 0: type = "INTEGER"; parts += [type, "PRIMARY KEY"] + (chance(50) ? ["AUTOINCREMENT"] : [])
            case 1: type = "TEXT"; parts += [type, "PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid())"]
            default: type = type.isEmpty || type == "ANY" ? "TEXT" : type; parts += [type, "PRIMARY KEY NOT NULL"]
            }
            key = column
            keyType = type
          } else {
            if !type.isEmpty { parts.append(type) }
            let notNull = chance(50) || composite && position < 2
            if notNull { parts.append("NOT NULL") }
            if chance(15), type == "TEXT" { parts.append(pick(["COLLATE NOCASE", "COLLATE RTRIM", "COLLATE BINARY"])) }
            if chance(10) { parts.append("UNIQUE") }
            if chance(30) {
              parts.append(pick(["DEFAULT 0", "DEFAULT ''", "DEFAULT 'it''s'", "DEFAULT 1.5", "DEFAULT CURRENT_TIMESTAMP", "DEFAULT (datetime('now'))", "DEFAULT NULL", "DEFAULT -1", "DEFAULT TRUE", "DEFAULT X'00'", "DEFAULT (1 + 2)"]))
            }
            if let target = tables.randomElement(using: &random), let targetKey = target.key, chance(30) {
              parts.append("REFERENCES \"\(target.name.replacingOccurrences(of: "\"", with: "\"\""))\"(\"\(quoted(targetKey))\")")
              parts.append(pick(["ON DELETE CASCADE", "ON DELETE SET NULL", "ON DELETE RESTRICT", "", "ON UPDATE CASCADE", "ON DELETE SET DEFAULT"]))
            } else if let key, chance(10) {
              parts.append("REFERENCES \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"(\"\(quoted(key))\")")
            }
          }
          definitions.append(parts.filter { !$0.isEmpty }.joined(separator: " "))
        }
        if composite { definitions.append("PRIMARY KEY (\"\(quoted(columns[0]))\", \"\(quoted(columns[1]))\")") }
        if chance(20) { definitions.append("CHECK (length(\"\(quoted(columns[0]))\") >= 0)") }
        if columns.count >= 2, chance(10) { definitions.append("UNIQUE (\"\(quoted(columns[0]))\", \"\(quoted(columns[1]))\")") }
        let withoutRowID = (composite || key != nil && keyType != "INTEGER") && chance(20)
        let options = [strict ? "STRICT" : nil, withoutRowID ? "WITHOUT ROWID" : nil].compactMap { $0 }.joined(separator: ", ")
        statements.append("CREATE TABLE \"\(quoted(table))\" (\(definitions.joined(separator: ", ")))\(options.isEmpty ? "" : " " + options);")
        for column in columns where chance(25) {
          let conventional = "index_\(table)_on_\(column)"
          let name = chance(60) ? conventional : "idx_\(index)_\(column)"
          let condition = chance(30) ? " WHERE \"\(quoted(column))\" IS NOT NULL" : ""
          statements.append("CREATE \(chance(20) ? "UNIQUE " : "")INDEX IF NOT EXISTS \"\(quoted(name))\" ON \"\(quoted(table))\"(\"\(quoted(column))\")\(condition);")
        }
        tables.append((table, composite ? nil : key, keyType))
      }
      if let first = tables.first, chance(30) {
        statements.append("CREATE VIEW \"v\" AS SELECT * FROM \"\(quoted(first.name))\";")
        statements.append("CREATE TRIGGER \"t\" AFTER INSERT ON \"\(quoted(first.name))\" BEGIN SELECT 1; END;")
      }
      return statements.joined(separator: "\n")
    }
  }

  @Test(arguments: 0..<100)
  func anyImportedSchemaNeedsNoMigration(seed: Int) throws {
    var schema = Schema(random: RobustnessTests.SplitMix(state: UInt64(seed) &* 7919))
    let sql = schema.sql()
    let path = try ImportTests.database(sql)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let imported = try DatabaseImport(databaseAt: path, source: "fuzz.sqlite")
    #expect(try ImportTests.nextMigration(("ImportedModels.swift", imported.swiftModels), baseline: imported.baseline) == nil, "\(sql)")
    #expect(try ImportTests.nextMigration(("Schema.strata", imported.schemaFile), baseline: imported.baseline) == nil, "\(sql)")
  }
}
