// Makes the database an app built on GRDB alone would have: tables that are not STRICT (with
// DATETIME, BOOLEAN and REAL columns), a cascading foreign key, a UNIQUE index on two columns, a
// WITHOUT ROWID table with a composite key, views (one with aggregates), a trigger, full-text
// search, its own migration names, and rows everywhere (a UUID as GRDB stores it: 16 bytes).
import Strata

let database = try openDatabase(.file(CommandLine.arguments[1]))
try database.write { db in
  try db.execute(
    sql: """
      CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
      INSERT INTO grdb_migrations VALUES ('createAuthors'), ('createBooks');
      CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, "birth year" INTEGER, token BLOB);
      CREATE TABLE book (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        authorId INTEGER NOT NULL REFERENCES author(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        publishedAt DATETIME,
        isDraft BOOLEAN NOT NULL DEFAULT 0,
        price REAL
      );
      CREATE INDEX book_on_authorId ON book(authorId);
      CREATE UNIQUE INDEX book_title_by_author ON book(authorId, title);
      CREATE TABLE bookShelf (
        bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE, shelf TEXT NOT NULL, PRIMARY KEY (bookId, shelf)
      ) WITHOUT ROWID;
      CREATE VIEW bookTitle AS SELECT title FROM book;
      CREATE VIEW authorStats AS
        SELECT author.name, count(book.id) AS books, sum(book.price) AS spent
        FROM author LEFT JOIN book ON book.authorId = author.id GROUP BY author.id;
      CREATE TRIGGER author_name_trimmed AFTER INSERT ON author BEGIN
        UPDATE author SET name = trim(name) WHERE id = NEW.id;
      END;
      CREATE VIRTUAL TABLE bookText USING fts5(title);
      INSERT INTO author (name, "birth year", token) VALUES
        ('Ursula K. Le Guin', 1929, X'E621E1F8C36C495A93FC0C247A3E6E5F'), ('Italo Calvino', 1923, NULL);
      INSERT INTO book (authorId, title, publishedAt, isDraft, price) VALUES
        (1, 'The Dispossessed', '1974-05-01 00:00:00.000', 0, 9.5), (2, 'Invisible Cities', NULL, 1, 12.25);
      INSERT INTO bookShelf VALUES (1, 'A'), (2, 'B');
      """)
}
print("made \(CommandLine.arguments[1])")
