import GRDB

/// How live queries learn of the changes that GRDB's observation does not report: commits by
/// another process or another connection to the same database file (an app extension, a widget,
/// a command-line tool), and schema changes on any connection.
///
/// While a database has live queries, Strata checks it by reading two numbers SQLite keeps,
/// `PRAGMA data_version` and `PRAGMA schema_version`, on the database's writer connection: when
/// its files change on disk (inotify on Linux, a file-system event source on Apple platforms),
/// so that another process's commit shows in a few milliseconds, and every ``checkInterval``
/// (half a second by default) for what no event reports. When either number moved, every live
/// query on that database fetches again: it shows the new rows, or sets its `loadError` when
/// its table or column is gone. One check serves all the live queries of a database, so a
/// hundred idle live queries cost what one does.
///
/// ```swift
/// ExternalChanges.checkInterval = .seconds(2)   // check less often
/// ExternalChanges.checkInterval = nil           // never on a schedule
/// ExternalChanges.check(database)               // now: say, on a notification from the extension
/// ```
///
/// `database.migrate(_:)` checks when it finishes, so live queries see a migration at once.
public enum ExternalChanges {
  /// How often each database with live queries is checked; nil checks only when
  /// ``check(_:)`` is called. A change committed elsewhere shows within this interval plus the
  /// time of the fetch.
  public static var checkInterval: Duration? {
    get { ExternalChangeMonitor.checkInterval }
    set { ExternalChangeMonitor.checkInterval = newValue }
  }

  /// Whether the files of a database with live queries are watched, so that a change on disk
  /// is checked at once; `true` by default. Turn it off to rely on the scheduled and explicit
  /// checks alone (a file system that reports events for nothing, say).
  public static var watchesFiles: Bool {
    get { ExternalChangeMonitor.watchesFiles }
    set { ExternalChangeMonitor.watchesFiles = newValue }
  }

  /// Checks `database` now, and makes its live queries fetch again if another connection
  /// committed or the schema changed since the last check. Does nothing when no live query
  /// reads `database`.
  public static func check(_ database: any DatabaseReader) {
    ExternalChangeMonitor.check(database)
  }
}
