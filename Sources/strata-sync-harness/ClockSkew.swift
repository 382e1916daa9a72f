// A device whose clock is hours off: SQLite's clock, which the capture triggers and the sync
// engine read for their stamps, set ahead or behind by a fixed amount in this process.
import Foundation
import GRDBSQLite

enum ClockSkew {
  /// The offset, in milliseconds; set once, before the first database opens.
  nonisolated(unsafe) private static var offset: sqlite3_int64 = 0
  nonisolated(unsafe) private static var systemTime: (@convention(c) (UnsafeMutablePointer<sqlite3_vfs>?, UnsafeMutablePointer<sqlite3_int64>?) -> Int32)?

  /// Makes SQLite's default file system (its "VFS") a copy of the system's whose clock is
  /// `milliseconds` off; every database opened afterwards reads that clock for `'now'`.
  static func install(milliseconds: Int64) {
    guard milliseconds != 0, let system = sqlite3_vfs_find(nil), system.pointee.iVersion >= 2 else { return }
    offset = milliseconds
    systemTime = system.pointee.xCurrentTimeInt64
    let skewed = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
    skewed.pointee = system.pointee
    skewed.pointee.zName = UnsafePointer(strdup("strata-harness-skewed"))
    skewed.pointee.xCurrentTimeInt64 = { vfs, time in
      // SQLite's time is in milliseconds since the Julian epoch.
      let status = ClockSkew.systemTime?(vfs, time) ?? SQLITE_ERROR
      time?.pointee += ClockSkew.offset
      return status
    }
    sqlite3_vfs_register(skewed, 1)
  }
}
