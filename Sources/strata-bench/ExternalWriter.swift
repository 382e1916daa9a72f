import Foundation
import GRDB

/// Another process that commits to a database file, as an app extension or a command-line tool
/// would: `strata-bench external-writer PATH COMMITS PAUSE_MS` sets the score of the player
/// named "Player 0" to 1, 2, … COMMITS, one commit every PAUSE_MS milliseconds (give or take a
/// fifth, so that commits do not fall in step with a reader's checks), and prints each commit's
/// number and moment (`DispatchTime` nanoseconds, the same clock in every process) once it is
/// committed. The cross-process live-query benchmark and test run it.
enum ExternalWriter {
  static func run(_ arguments: [String]) throws {
    guard arguments.count == 3, let commits = Int(arguments[1]), let pause = Int(arguments[2]) else {
      FileHandle.standardError.write(Data("usage: strata-bench external-writer PATH COMMITS PAUSE_MS\n".utf8))
      exit(2)
    }
    // Plain GRDB, without Strata's set-up: a process that knows nothing of live queries.
    let database = try DatabaseQueue(path: arguments[0])
    for number in 1...max(commits, 1) {
      let jitter = pause / 5
      Thread.sleep(forTimeInterval: Double(pause + Int.random(in: -jitter...jitter)) / 1000)
      try database.write { db in
        try db.execute(sql: "UPDATE players SET score = ? WHERE name = 'Player 0'", arguments: [number])
      }
      FileHandle.standardOutput.write(Data("\(number) \(DispatchTime.now().uptimeNanoseconds)\n".utf8))
    }
  }
}
