import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// The numbers and SQL the docs state are the code's: defaults, and the SQL an example renders.
@Suite struct DocumentationClaimsTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func document(_ path: String) throws -> String {
    // Lines wrap anywhere in prose: compare with single spaces.
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  @Test func postgreSQLDefaultsAreTheOnesTheDocsGive() throws {
    let article = try Self.document("Sources/StrataPostgreSQL/StrataPostgreSQL.docc/RunningOnPostgreSQL.md")
    let defaults = PostgreSQLDatabase.Configuration()
    #expect(article.contains("(`Configuration.transactionRetries`, 100)") && defaults.transactionRetries == 100)
    #expect(article.contains("`Configuration.connectionTimeout` (10 seconds)") && defaults.connectionTimeout == .seconds(10))
    #expect(article.contains("`Configuration.migrationLockTimeout` (2 minutes)") && defaults.migrationLockTimeout == .seconds(120))
  }

  @Test func theREADMEsQueryRendersTheSQLItShows() throws {
    let readme = try Self.document("README.md").replacingOccurrences(of: " // ", with: " ")
    let query = Player.where { $0.name.contains("Blob") }.order(by: \.name).limit(10)
    #expect(readme.contains("Player.where { $0.name.contains(\"Blob\") }.order(by: \\.name).limit(10)"))
    #expect(readme.contains(query.queryFragment.sql), "\(query.queryFragment.sql)")
  }

  @Test func theREADMEsPreparedStatementFindsAsTheStatementItPrepares() throws {
    let readme = try Self.document("README.md")
    #expect(readme.contains("let playerByID = try PreparedStatement(UUID.self) { id in Player.find(id) }"))
    #expect(readme.contains("let player = try playerByID(id).fetchOne(db)"))
    let playerByID = try PreparedStatement(UUID.self) { id in Player.find(id) }
    #expect(playerByID(UUID(12)).queryFragment == Player.find(UUID(12)).queryFragment)
    let database = try scorekeeperDatabase()
    try database.write { try seedScorekeeper($0) }
    let player = try database.read { db in try playerByID(UUID(12)).fetchOne(db) }
    #expect(player?.name == "Blob Jr")
  }
}
