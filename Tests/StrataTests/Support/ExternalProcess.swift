import Foundation
import Testing

/// A process started from the package's built executables, with its output collected.
///
/// Started with `posix_spawn` and waited for with `waitpid`: Foundation's `Process` missed the
/// exit of processes started together here, and its wait never returned.
struct ExternalProcess {
  let pid: pid_t
  let outputPath: String

  /// Starts `strata-bench` (which the tests' build also builds) with `arguments`.
  static func start(_ arguments: [String]) throws -> ExternalProcess {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("strata-bench"),
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../.build/debug/strata-bench"),
    ]
    let executable = try #require(
      candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "strata-bench is not built; run `swift build`")
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("strata-process-\(UUID().uuidString)").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let command = [executable.path] + arguments
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    return ExternalProcess(pid: pid, outputPath: outputPath)
  }

  /// Waits for the process to exit, without holding a thread the tests' tasks share; its exit
  /// status and what it printed.
  func finish() async throws -> (status: Int32, output: String) {
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      try await Task.sleep(for: .milliseconds(5))
    }
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
  }
}
