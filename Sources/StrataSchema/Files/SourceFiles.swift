import Foundation

/// Finds and reads input files.
public enum SourceFiles {
  /// The files with one of `suffixes` among `paths`, searching directories recursively (skipping
  /// hidden ones and `.build`), sorted so that output does not depend on the order of arguments.
  ///
  /// - Throws: ``InputError`` for a path that does not exist, or a file named without one of
  ///   `suffixes`: reading a file of another kind as models would report nonsense at its lines.
  public static func collect(_ paths: [String], suffixes: [String]) throws -> [String] {
    var found: Set<String> = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError("no such file or directory: \(path)")
      }
      if !isDirectory.boolValue {
        guard suffixes.contains(where: path.hasSuffix) else {
          throw InputError(
            "\(path) is not a \(suffixes.joined(separator: " or ")) file; give model files or the directories that hold them")
        }
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
        if suffixes.contains(where: relative.hasSuffix) {
          found.insert((path as NSString).appendingPathComponent(relative))
        }
      }
    }
    return found.sorted()
  }

  /// Reads a UTF-8 text file, without a byte order mark if it starts with one.
  ///
  /// - Throws: ``DiagnosticsError`` at the first byte that is not UTF-8: decoding it lossily
  ///   would put replacement characters into generated files.
  public static func read(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputError("cannot read \(path)")
    }
    var bytes = Array(data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    if let offset = firstInvalidUTF8(bytes) {
      let (line, column) = position(ofByte: offset, in: bytes)
      throw DiagnosticsError([
        Diagnostic(
          .error, "this file is not UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) here); save it as UTF-8",
          at: SourceLocation(path: path, line: line, column: column))
      ])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The offset of the first byte that does not belong to valid UTF-8, or nil.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  /// The 1-based line and column (in bytes, as SwiftPM and Xcode count them) of a byte offset.
  static func position(ofByte offset: Int, in bytes: some Collection<UInt8>) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    for (index, byte) in bytes.prefix(offset).enumerated() where byte == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    return (line, offset - lineStart + 1)
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
