// A server's models whose migrations are PostgreSQL's (Migrations/strata.json): the same models
// as for SQLite, and generated code that imports StrataPostgreSQL, the module this target uses.
import Foundation
import StrataPostgreSQL

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

/// The ledger's statements, built where the models are.
public enum Ledger {
  public static func open(owner: String, at date: Date) -> Insert<Account, UUID> {
    Account.insert { Account.Draft(owner: owner, openedAt: date) }.returning(\.id)
  }

  public static func credit(_ account: Account.ID, _ amount: Double, tags: [String]) -> Insert<Entry, ()> {
    Entry.insert { Entry.Draft(accountID: account, amount: amount, tags: tags) }
  }

  public static func balances() -> some QueryStatement<(String, Double?)> {
    Account.group(by: \.id).leftJoin(Entry.all) { $0.id.eq($1.accountID) }.order(by: \.owner)
      .select { ($0.owner, $1.amount.sum()) }
  }
}
