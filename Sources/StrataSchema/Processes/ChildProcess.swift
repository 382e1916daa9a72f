import Foundation

/// A program started with `posix_spawn` and waited for with `waitpid`, with a deadline: the one
/// way this package (and its tests) run other programs.
///
/// Foundation's `Process` is not used: its exit notification depends on a run loop a
/// command-line tool does not run, and with several processes started together from different
/// threads its `waitUntilExit` was seen never to return.
///
/// What the program prints goes to files rather than pipes: nothing to drain while it runs, and
/// no pipe a background child (a server it starts) could hold open.
package struct ChildProcess: Sendable {
  /// How a program ended, and what it printed.
  package struct Result: Sendable {
    /// The exit code, or 128 plus the number of the signal that ended the program.
    package var status: Int32
    package var output: String
    package var errors: String
  }

  /// A program that did not end in time; it has been killed.
  package struct Timeout: Error, CustomStringConvertible {
    package var program: String
    package var seconds: Double
    package var description: String { "\(program) did not finish within \(Int(seconds.rounded(.up))) seconds" }
  }

  package let pid: pid_t
  private let program: String
  /// Where its input and what it prints are kept, when it reads input or its output is kept.
  private let folder: String?

  /// Starts `command` (a path and its arguments), reading `input` (or nothing), in `directory`
  /// when one is given. Without `capturing`, what it prints goes nowhere.
  package static func start(_ command: [String], input: String? = nil, directory: String? = nil, capturing: Bool = true) throws -> ChildProcess {
    precondition(!command.isEmpty, "a command names a program")
    var folder: String?
    if input != nil || capturing {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("strata-run-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      folder = path
    }
    let inputPath = input == nil ? "/dev/null" : (folder! as NSString).appendingPathComponent("in")
    if let input { try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath)) }
    let outputPath = capturing ? (folder! as NSString).appendingPathComponent("out") : "/dev/null"
    let errorPath = capturing ? (folder! as NSString).appendingPathComponent("err") : "/dev/null"

    // posix_spawn has no portable way to change directory (glibc's addchdir_np is not imported
    // into Swift), so a shell changes it and then becomes the program.
    let spawned = directory.map { ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, $0] + command } ?? command
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    closeInheritedFiles(&actions, &attributes)
    let argv = spawned.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let failure = posix_spawn(&pid, spawned[0], &actions, &attributes, argv, environ)
    guard failure == 0 else {
      if let folder { try? FileManager.default.removeItem(atPath: folder) }
      throw InputError("could not run \(command[0]): \(String(cString: strerror(failure)))")
    }
    return ChildProcess(pid: pid, program: (command[0] as NSString).lastPathComponent, folder: folder)
  }

  /// Has the program start with only its input and outputs open. A descriptor this process
  /// inherited without close-on-exec (the write end of the pipe a plugin reads this tool's
  /// output from, say) would otherwise stay open in a program that outlives it, and the reader
  /// would wait for its end forever.
  private static func closeInheritedFiles(_ actions: inout posix_spawn_file_actions_t, _ attributes: inout posix_spawnattr_t) {
    #if canImport(Darwin)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
    #else
    // glibc 2.34 has it, but Swift's Glibc module does not declare it.
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
      _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
    #endif
  }

  /// Runs `command` once the process `pid` has ended, however it ended, and then removes
  /// `folder`: from a shell that outlives this process, which polls every second. For cleaning up
  /// what an exit handler cannot promise to, since a process killed by a signal runs none.
  package static func afterProcessEnds(_ pid: pid_t, run command: [String], removing folder: String) throws {
    let script = #"pid=$1; folder=$2; shift 2; while kill -0 "$pid" 2>/dev/null; do sleep 1; done; "$@"; rm -rf "$folder""#
    _ = try start(["/bin/sh", "-c", script, "sh", String(pid), folder] + command, capturing: false)
  }

  /// Runs `command` to its end, or kills it after `timeout` seconds and throws ``Timeout``.
  package static func run(
    _ command: [String], input: String? = nil, directory: String? = nil, timeout: Double, capturing: Bool = true
  ) throws -> Result {
    let process = try start(command, input: input, directory: directory, capturing: capturing)
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let result = try process.poll(deadline: deadline, timeout: timeout) { return result }
      usleep(2_000)
    }
  }

  /// Waits for the program to end without holding one of the threads Swift's tasks share, or
  /// kills it after `timeout` seconds and throws ``Timeout``.
  package func finish(timeout: Double) async throws -> Result {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let result = try poll(deadline: deadline, timeout: timeout) { return result }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }

  /// The result once the program has ended; nil while it runs and the deadline is ahead.
  private func poll(deadline: Date, timeout: Double) throws -> Result? {
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == 0 {
      guard Date() > deadline else { return nil }
      kill(pid, SIGKILL)
      _ = waitpid(pid, &status, 0)
      if let folder { try? FileManager.default.removeItem(atPath: folder) }
      throw Timeout(program: program, seconds: timeout)
    }
    defer { if let folder { try? FileManager.default.removeItem(atPath: folder) } }
    let read = { (name: String) in
      folder.flatMap { try? String(contentsOfFile: ($0 as NSString).appendingPathComponent(name), encoding: .utf8) } ?? ""
    }
    // WEXITSTATUS, or a code for the signal that ended it.
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Result(status: code, output: read("out"), errors: read("err"))
  }
}
