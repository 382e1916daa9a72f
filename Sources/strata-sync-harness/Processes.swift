// Child processes the harness starts, kills and restarts: its own executable in another role
// (the server, a device), and PostgreSQL's programs.
import Foundation

/// A process the harness started, with posix_spawn (see ``runToEnd(_:input:)``).
final class Child: @unchecked Sendable {
  let name: String
  let pid: pid_t
  // Set once the process is reaped.
  private var exitStatus: Int32?

  /// Starts `arguments` (the program first), its output appended to `log`.
  init(_ name: String, _ arguments: [String], log: String) throws {
    self.name = name
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard spawned == 0 else { throw HarnessError("could not start \(arguments[0]): error \(spawned)") }
    self.pid = pid
  }

  var isRunning: Bool {
    reap(blocking: false)
    return exitStatus == nil
  }

  /// How it ended: its exit code, or 128 + the signal that ended it.
  var status: Int32 { exitStatus ?? -1 }

  private func reap(blocking: Bool) {
    guard exitStatus == nil else { return }
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
    if result == pid { exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }
  }

  /// Kills it at once, as a crash or the system would, and waits for it to be gone.
  func kill() {
    guard isRunning else { return }
    Foundation.kill(pid, SIGKILL)
    reap(blocking: true)
  }
}

/// Runs `arguments` to the end; its output, or an error with it when it fails. The output goes
/// through a file, not a pipe: `pg_ctl start` leaves the server behind holding it, and a pipe
/// would never end. (posix_spawn and waitpid, not Foundation's Process, whose
/// `waitUntilExit()` was seen to wait forever here for a program that had exited.)
@discardableResult
func runToEnd(_ arguments: [String], input: String? = nil) throws -> String {
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("strata-harness-run-\(UUID().uuidString.prefix(8))").path
  defer {
    unlink(scratch + ".in")
    unlink(scratch + ".out")
  }
  try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: scratch + ".in"))
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, scratch + ".in", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, scratch + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)
  // A file the server inherits, writable by whoever it runs as.
  _ = FileManager.default.createFile(atPath: scratch + ".out", contents: nil, attributes: [.posixPermissions: 0o666])
  var pid: pid_t = 0
  let argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
  guard spawned == 0 else { throw HarnessError("could not start \(arguments[0]): error \(spawned)") }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  let text = (try? String(contentsOfFile: scratch + ".out", encoding: .utf8)) ?? ""
  let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  guard exitCode == 0 else {
    throw HarnessError("\((arguments[0] as NSString).lastPathComponent) failed (\(exitCode)): \(text)")
  }
  return text
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A loopback port nothing listens on now.
func freePort() throws -> Int {
  let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(socket) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
  }
  guard bound else { throw HarnessError("no free loopback port") }
  return Int(UInt16(bigEndian: address.sin_port))
}
