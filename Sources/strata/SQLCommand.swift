import ArgumentParser
import Foundation
import StrataCommandLine
import StrataSchema

/// `strata sql`: SQL run on a database file with the functions Strata's tables need.
struct SQLCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sql",
    abstract: "Run SQL on a database file, with uuid() and the functions Strata's tables need.",
    discussion: """
      For fixing a row by hand: a table Strata made defaults its UUID keys to uuid(), which the \
      sqlite3 shell and database browsers do not have, so their INSERTs fail. The statements run \
      in order, each in its own transaction, with foreign keys on; rows print as the sqlite3 \
      shell's list mode does (columns separated by |). Without SQL arguments, the SQL is read \
      from standard input.
      """)

  @Argument(help: ArgumentHelp("The SQLite database file.", valueName: "database"))
  var database: String

  @Argument(help: ArgumentHelp("The SQL to run, each argument in turn; standard input when none is given.", valueName: "sql"))
  var sql: [String] = []

  func run() throws {
    try reportingFailures {
      // Each argument is a script of its own, so two arguments without a `;` between them are
      // two statements, as they read on the command line, not one statement SQLite refuses.
      let scripts = sql.isEmpty ? [String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)] : sql
      for script in scripts {
        for line in try SQLShell.run(script, onDatabaseAt: database) { print(line) }
      }
      return 0
    }
  }
}
