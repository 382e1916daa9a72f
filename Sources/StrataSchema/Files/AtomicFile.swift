import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes output files without ever leaving a partial one.
public enum AtomicFile {
  /// Temporary files are hidden, so that Strata, SwiftPM and git's usual ignore rules skip
  /// them, and carry the writer's process id, so that a later run can tell which ones a killed
  /// run left behind.
  static let temporaryPrefix = ".strata-tmp-"

  /// Writes `text` to `path` through a temporary file in the same directory and a rename. Leaves
  /// the file untouched when it already holds `text`, so that the build does not recompile it.
  ///
  /// - Returns: Whether the file changed.
  @discardableResult
  public static func write(_ text: String, to path: String) throws -> Bool {
    try write(Data(text.utf8), to: path)
  }

  /// Writes `data` to `path` as ``write(_:to:)`` writes text.
  @discardableResult
  static func write(_ data: Data, to path: String) throws -> Bool {
    let manager = FileManager.default
    if manager.contents(atPath: path) == data { return false }
    let directory = (path as NSString).deletingLastPathComponent
    try manager.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
    removeAbandonedTemporaryFiles(in: directory)
    let temporary = (directory as NSString).appendingPathComponent(
      "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    guard manager.createFile(atPath: temporary, contents: data) else {
      throw InputError("cannot write \(path)")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw InputError("cannot write \(path): \(reason)")
    }
    return true
  }

  /// Removes the temporary files of runs that were killed between writing and renaming: those
  /// whose process no longer exists.
  static func removeAbandonedTemporaryFiles(in directory: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
    for name in names where name.hasPrefix(temporaryPrefix) {
      let fields = name.dropFirst(temporaryPrefix.count).split(separator: "-")
      guard let pid = fields.first.flatMap({ pid_t($0) }), kill(pid, 0) != 0, errno == ESRCH else { continue }
      unlink((directory as NSString).appendingPathComponent(name))
    }
  }
}
