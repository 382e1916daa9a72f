import Foundation
@testable import StrataSchema
import Testing

/// `strata-bench` (which the tests' build also builds) started as a process of its own.
enum ExternalProcess {
  /// Starts `strata-bench` with `arguments`; `finish(timeout:)` waits for it.
  static func start(_ arguments: [String]) throws -> ChildProcess {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("strata-bench"),
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../.build/debug/strata-bench"),
    ]
    let executable = try #require(
      candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "strata-bench is not built; run `swift build`")
    return try ChildProcess.start([executable.path] + arguments)
  }
}
