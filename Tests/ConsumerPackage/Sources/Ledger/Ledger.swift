// A server's models whose migrations are PostgreSQL's (Migrations/strata.json): the same models
// and the same generated code as for SQLite; only the migrations differ.
import Foundation
import Strata

public struct Account: Table, Identifiable {
  public let id: UUID
  public var owner = ""
  public var isFrozen = false
  public var openedAt: Date
}

public struct Entry: Table, Identifiable {
  public let id: Int
  public var accountID: Account.ID
  public var amount: Double
  // @Column(as: JSONRepresentation<[String]>.self)
  public var tags: [String] = []
}
