import Foundation

/// Writes output files without ever leaving a partial one.
public enum AtomicFile {
  /// Writes `text` to `path` through a temporary file in the same directory and a rename. Leaves
  /// the file untouched when it already holds `text`, so that the build does not recompile it.
  ///
  /// - Returns: Whether the file changed.
  @discardableResult
  public static func write(_ text: String, to path: String) throws -> Bool {
    let data = Data(text.utf8)
    if FileManager.default.contents(atPath: path) == data { return false }
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
    return true
  }
}
