// Makes the database an app built on GRDB alone would have: tables that are not STRICT, a
// composite key, a view, a trigger, full-text search, its own migration names, and rows (a UUID
// as GRDB stores it: 16 bytes).
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
        publishedAt DATETIME
      );
      CREATE INDEX book_on_authorId ON book(authorId);
      CREATE TABLE bookShelf (bookId INTEGER NOT NULL REFERENCES book(id), shelf TEXT NOT NULL, PRIMARY KEY (bookId, shelf));
      CREATE VIEW bookTitle AS SELECT title FROM book;
      CREATE TRIGGER author_name_trimmed AFTER INSERT ON author BEGIN
        UPDATE author SET name = trim(name) WHERE id = NEW.id;
      END;
      CREATE VIRTUAL TABLE bookText USING fts5(title);
      INSERT INTO author (name, "birth year", token) VALUES
        ('Ursula K. Le Guin', 1929, X'E621E1F8C36C495A93FC0C247A3E6E5F'), ('Italo Calvino', 1923, NULL);
      INSERT INTO book (authorId, title, publishedAt) VALUES (1, 'The Dispossessed', '1974-05-01 00:00:00.000'), (2, 'Invisible Cities', NULL);
      INSERT INTO bookShelf VALUES (1, 'A'), (2, 'B');
      """)
}
print("made \(CommandLine.arguments[1])")
