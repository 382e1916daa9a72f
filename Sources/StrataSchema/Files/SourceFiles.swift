import Foundation

/// Finds and reads input files.
public enum SourceFiles {
  /// The files with `suffix` among `paths`, searching directories recursively (skipping hidden
  /// ones and `.build`), sorted so that output does not depend on the order of arguments.
  public static func collect(_ paths: [String], suffix: String) throws -> [String] {
    var found: Set<String> = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError("no such file or directory: \(path)")
      }
      if !isDirectory.boolValue {
        found.insert(path)
        continue
      }
      guard let enumerator = manager.enumerator(atPath: path) else { continue }
      while let relative = enumerator.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") || name == ".build" {
          enumerator.skipDescendants()
          continue
        }
        if relative.hasSuffix(suffix) {
          found.insert((path as NSString).appendingPathComponent(relative))
        }
      }
    }
    return found.sorted()
  }

  /// Reads a UTF-8 text file.
  public static func read(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputError("cannot read \(path)")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// `path` relative to `root` when it is inside it, for headers that are the same on every
  /// machine.
  public static func relative(_ path: String, to root: String?) -> String {
    guard let root else { return (path as NSString).lastPathComponent }
    let base = URL(fileURLWithPath: root).standardizedFileURL.path
    let full = URL(fileURLWithPath: path).standardizedFileURL.path
    let prefix = base.hasSuffix("/") ? base : base + "/"
    return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
  }
}

/// A problem with the command's input that is not about a line of a file.
public struct InputError: Error, CustomStringConvertible, Sendable {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
