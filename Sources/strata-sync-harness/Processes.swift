// Child processes the harness starts, kills and restarts: its own executable in another role
// (the server, a device), and PostgreSQL's programs.
import Foundation

/// A process the harness started.
final class Child: @unchecked Sendable {
  let name: String
  private let process: Process

  /// Starts `arguments` (the program first), its output appended to `log`.
  init(_ name: String, _ arguments: [String], log: String, environment: [String: String] = [:]) throws {
    self.name = name
    process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    output.seekToEndOfFile()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  var isRunning: Bool { process.isRunning }
  var pid: Int32 { process.processIdentifier }
  var status: Int32 { process.terminationStatus }

  /// Kills it at once, as a crash or the system would, and waits for it to be gone.
  func kill() {
    guard process.isRunning else { return }
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Asks it to finish (SIGTERM) and waits up to `seconds`, then kills it.
  func stop(within seconds: Double = 10) {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    kill()
  }

  /// Waits for it to exit on its own.
  func wait() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// Runs `arguments` to the end; its output, or an error with it when it fails.
@discardableResult
func runToEnd(_ arguments: [String], input: String? = nil) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: arguments[0])
  process.arguments = Array(arguments.dropFirst())
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  let stdin = Pipe()
  process.standardInput = input == nil ? FileHandle.nullDevice : stdin
  try process.run()
  if let input {
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  guard process.terminationStatus == 0 else {
    throw HarnessError("\((arguments[0] as NSString).lastPathComponent) failed (\(process.terminationStatus)): \(text)")
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
