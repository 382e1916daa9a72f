// A lending library: the Swift models that Library.strata stands for.
import Foundation
import Strata

public enum Genre: Int {
  case fiction = 1
  case history
  case science
}

public enum Format: String {
  case hardcover
  case paperback
  case ebook
}

// @Table("library_authors")
public struct Author: Table, Identifiable {
  public let id: Int
  // @Column(collate: .nocase)
  // @Unique
  public var name: String
  public var born: Int?
  // @Column("web_site")
  public var website: String?
}

// @Index(on: "authorID, title")
public struct Book: Table, Identifiable {
  public let id: UUID
  public var authorID: Author.ID
  public var title: String = "Untitled"
  public var genre: Genre = .fiction
  public var format: Format = .paperback
  public var pages: Int16 = 0
  public var price: Double = 9.5
  // @Unique
  public var isbn: String?
  // @Column(as: JSONRepresentation<[String]>.self)
  public var tags: [String] = []
  // @Column(as: JSONRepresentation<[String: Int]>.self)
  public var ratings: [String: Int]?
  // @Column(as: Date.UnixTimeRepresentation.self)
  public var published: Date?
  public var cover: Data?
  public var inPrint: Bool = true
  // @Index
  // @Renamed(from: "location")
  public var shelf: String = "A-1"
}

public struct Tag: Table {
  // @Column(primaryKey: true, collate: .nocase)
  public let name: String
}

extension Tag: Identifiable {
  public var id: String { name }
}

// @Unique(on: "bookID, tag")
public struct BookTag: Table {
  public var bookID: Book.ID
  // @References(Tag.self, onDelete: .restrict)
  public var tag: String
}

public struct Loan: Table, Identifiable {
  public let id: Int
  // @References(Book.self, onDelete: .setNull)
  public var bookID: Book.ID?
  public var borrower: String = ""
  public var due: Date
  // @Backfill(raw: "'main'")
  public var branch: String
}

// @PrimaryKey(on: "bookID, reader")
// @Check(raw: "stars BETWEEN 1 AND 5")
// @Index(on: "stars", whereRaw: "stars >= 4")
public struct Review: Table {
  public var bookID: Book.ID
  public var reader: String
  public var stars: Int = 3
  // @Default(raw: "CURRENT_TIMESTAMP")
  public var writtenAt: String
}

public struct AuthorShelf: Selection {
  public let author: Author
  public let bookCount: Int
  // @Column(as: JSONRepresentation<[String]>.self)
  public let tags: [String]?
}
