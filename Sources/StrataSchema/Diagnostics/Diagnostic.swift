/// A position in a source file, 1-based.
public struct SourceLocation: Hashable, Comparable, Sendable {
  /// The file's path, as given to the generator.
  public var path: String
  /// The 1-based line.
  public var line: Int
  /// The 1-based column, in UTF-8 bytes.
  public var column: Int

  /// A location in `path`.
  public init(path: String, line: Int, column: Int) {
    self.path = path
    self.line = line
    self.column = column
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
  }
}

/// An error or warning about the input, reported at the line it concerns.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// How serious a diagnostic is: an error stops the command.
  public enum Severity: String, Sendable {
    case error, warning, note
  }

  /// Error, warning or note.
  public var severity: Severity
  /// What is wrong and, where possible, what to do.
  public var message: String
  /// Where.
  public var location: SourceLocation

  /// A diagnostic at `location`.
  public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
    self.severity = severity
    self.message = message
    self.location = location
  }

  /// `path:line:column: error: message`, the form SwiftPM and Xcode attach to the source line.
  public var description: String {
    "\(location.path):\(location.line):\(location.column): \(severity.rawValue): \(message)"
  }
}

/// Diagnostics collected while reading input; reading goes on after an error so that every
/// problem is reported at once.
public struct Diagnostics: Sendable {
  public private(set) var all: [Diagnostic] = []

  /// No diagnostics yet.
  public init() {}

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { all.contains { $0.severity == .error } }

  /// Records an error.
  public mutating func error(_ message: String, at location: SourceLocation) {
    all.append(Diagnostic(.error, message, at: location))
  }

  /// Records a warning.
  public mutating func warning(_ message: String, at location: SourceLocation) {
    all.append(Diagnostic(.warning, message, at: location))
  }

  /// The diagnostics in file and line order.
  public var sorted: [Diagnostic] {
    all.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
      .map(\.element)
  }
}

/// Input that could not be turned into output; carries every diagnostic found.
public struct DiagnosticsError: Error, CustomStringConvertible, Sendable {
  /// Every diagnostic, in file and line order.
  public let diagnostics: [Diagnostic]

  /// An error carrying `diagnostics`.
  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}
