// `strata-sync-harness run`: PostgreSQL, the sync server and the devices as processes; the
// faults, for as long as asked, and the app's schema changes (a third of the way in, the server
// and half the devices take the expand step; two thirds in, the server the contract step, and
// the devices still on the first schema are told to update); then the heal (faults off, every
// device updated and synced until all agree) and the check of the history they left.
#if SyncServer
import Foundation
import GRDB
import Strata
import StrataSync
import StrataSyncClient

struct HarnessOptions {
  var devices = 20
  var devicesPerUser = 4
  var duration: Double = 60
  var faults = true
  /// Whether the server and devices move to newer schemas mid-run.
  var schemaChanges = true
  var seed: UInt64 = UInt64(Date().timeIntervalSince1970)
  var keep = false
}

/// A run's figures, for the report and for the tests.
struct HarnessReport {
  var devices = 0
  var seconds = 0.0
  var faults: [String: Int] = [:]
  var requests = 0
  var check = CheckResult()
  var convergenceSeconds = 0.0
  var unexpectedExits: [String] = []
  var serverMemory: [Int] = []
  var latencies: [Duration] = []
  /// When the server moved to each newer schema, in seconds from the start.
  var schemaMoves: [(schema: Int, second: Double)] = []
  /// Devices the server told to update the app (older than its window), which kept writing.
  var devicesToldToUpdate = 0

  var passed: Bool { check.failures.isEmpty && unexpectedExits.isEmpty }
}

final class Orchestrator: @unchecked Sendable {
  let options: HarnessOptions
  let folder: String
  let executable: String
  private var postgres: PostgresProcess!
  private var server: Child!
  private var serverPort = 0
  private var proxy: FaultProxy!
  private var devices: [Child?] = []
  /// How many of the app's migrations each device runs: its app version.
  private var deviceSchemas: [Int] = []
  /// How many of its migrations the server's database has run.
  private var serverSchema = 1
  private var report = HarnessReport()
  private var random: SeededRandom
  private let databaseName = "harness"

  init(options: HarnessOptions) throws {
    self.options = options
    random = SeededRandom(seed: options.seed)
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-harness-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
  }

  func run() async throws -> HarnessReport {
    var passed = false
    defer { cleanUp(keepingFolder: options.keep || !passed) }
    log("seed \(options.seed), \(options.devices) devices, \(options.duration) s, faults \(options.faults ? "on" : "off"), in \(folder)")
    postgres = try PostgresProcess()
    try postgres.psql("CREATE DATABASE \(databaseName)")
    let lastSchema = StrataMigrations.all.count
    serverSchema = options.schemaChanges ? 1 : lastSchema
    for migration in try Self.serverMigrations().prefix(serverSchema) { try postgres.psql(migration, database: databaseName) }
    serverPort = try freePort()
    try startServer()
    try await waitForServer()
    proxy = try FaultProxy(upstream: serverPort)
    proxy.setFaulty(options.faults)
    devices = Array(repeating: nil, count: options.devices)
    deviceSchemas = Array(repeating: serverSchema, count: options.devices)
    for index in 0..<options.devices { try startDevice(index) }
    report.devices = options.devices

    let start = Date()
    let probing = options.faults ? nil : Task { try await self.probeLatency(until: start.addingTimeInterval(self.options.duration)) }
    var nextFault = Date().addingTimeInterval(Double(random.int(2...5)))
    while Date().timeIntervalSince(start) < options.duration {
      try await Task.sleep(for: .milliseconds(250))
      try watch()
      if options.faults, Date() >= nextFault {
        try await injectFault()
        nextFault = Date().addingTimeInterval(Double(random.int(2...6)))
      }
      let elapsed = Date().timeIntervalSince(start)
      if serverSchema < lastSchema, elapsed >= options.duration * Double(serverSchema) / Double(lastSchema) {
        try await moveServer(to: serverSchema + 1, at: elapsed)
      }
    }
    report.latencies = (try await probing?.value) ?? []
    report.seconds = Date().timeIntervalSince(start)

    // The heal: the devices stop as they are (killed mid-whatever), the network heals, and each
    // device syncs straight with the server until every device holds what the server holds.
    for device in devices { device?.kill() }
    proxy.setFaulty(false)
    if !(server.isRunning) { try startServer() }
    try await waitForServer()
    let healing = Date()
    var result = CheckResult()
    for round in 1...8 {
      for index in 0..<options.devices {
        try await heal(index)
      }
      result = try check()
      log("heal round \(round): \(result.diverged.count) rows differ")
      if result.diverged.isEmpty { break }
    }
    report.convergenceSeconds = Date().timeIntervalSince(healing)
    report.check = result
    report.devicesToldToUpdate = (0..<options.devices).filter { index in
      ((try? String(contentsOfFile: "\(folder)/device\(index).log", encoding: .utf8)) ?? "").contains("refused: ")
    }.count
    let traffic = proxy.report
    report.requests = traffic.requests
    for (fault, count) in traffic.faults { report.faults[fault.rawValue, default: 0] += count }
    passed = report.passed
    return report
  }

  // MARK: Processes

  private func user(of device: Int) -> String {
    "u\(device / options.devicesPerUser)"
  }

  private func startServer() throws {
    var arguments = [executable, "server", "--postgres", postgres.url(databaseName), "--port", String(serverPort)]
    if let schema = SyncSchema(migrations: Array(StrataMigrations.all.prefix(serverSchema))) { arguments += ["--schema", schema.headerValue] }
    server = try Child("server", arguments, log: folder + "/server.log")
  }

  /// Runs the server's next migration as a deploy does (the server stopped, its migration, the
  /// new version started); after the expand step, half the devices update their app too.
  private func moveServer(to schema: Int, at second: Double) async throws {
    server.kill()
    let migration = try Self.serverMigrations()[schema - 1]
    var attempts = 0
    while true {
      do {
        try postgres.psql(migration, database: databaseName)
        break
      } catch {
        // PostgreSQL may be starting again after a fault.
        attempts += 1
        if attempts >= 20 { throw error }
        try await Task.sleep(for: .milliseconds(500))
      }
    }
    serverSchema = schema
    report.schemaMoves.append((schema, second))
    log("the server moved to schema \(schema) at \(Int(second)) s")
    try startServer()
    try await waitForServer()
    guard schema == 2 else { return }
    for index in 0..<options.devices where index % 2 == 1 {
      devices[index]?.kill()
      deviceSchemas[index] = schema
      try startDevice(index)
    }
  }

  /// The server's PostgreSQL migrations, in order, each in one transaction.
  static func serverMigrations() throws -> [String] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ServerMigrations")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted().map { name in
      "BEGIN;\n" + (try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) + "\nCOMMIT;\n"
    }
  }

  private func waitForServer() async throws {
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
      let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = in_port_t(UInt16(serverPort).bigEndian)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      close(socket)
      if connected == 0 { return }
      if !server.isRunning {
        report.unexpectedExits.append("the server exited (\(server.status)) before it served; see \(folder)/server.log")
        try startServer()
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw HarnessError("the server did not start within 2 minutes; see \(folder)/server.log")
  }

  // Devices are other machines: here they run only when the server and PostgreSQL leave a
  // processor idle (SCHED_IDLE). At `nice 15`, twenty devices (Linux's URLSession spends most
  // of its time in the kernel) still kept PostgreSQL's backends and the server off the
  // processors for seconds at a time; a push so held kept the clock row, and so every other
  // push, waiting for up to a minute: the harness measured its own machine, not sync.
#if os(Linux)
  private static let lowestPriority = ["/usr/bin/chrt", "--idle", "0"]
#else
  private static let lowestPriority = ["/usr/bin/nice", "-n", "20"]
#endif

  private func startDevice(_ index: Int) throws {
    let users = max(1, options.devices / options.devicesPerUser)
    let userNumber = index / options.devicesPerUser
    // Two devices in five have clocks hours off: three hours ahead, two behind.
    let skew: Int64 = index % 5 == 3 ? 3 * 3_600_000 : index % 5 == 4 ? -2 * 3_600_000 : 0
    var arguments = Self.lowestPriority + [
      executable, "device", "--database", "\(folder)/device\(index).sqlite", "--server", "http://127.0.0.1:\(proxy.port)/",
      "--user", user(of: index), "--seed", String(options.seed &+ UInt64(index)), "--skew", String(skew),
      "--schema", String(deviceSchemas[index]),
    ]
    if index % options.devicesPerUser == 0, users > 1 {
      arguments += ["--first", "--partner", "u\((userNumber + 1) % users)"]
    }
    devices[index] = try Child("device \(index)", arguments, log: "\(folder)/device\(index).log")
  }

  /// Restarts what exited on its own: a device or the server crashing is a failure.
  private func watch() throws {
    for (index, device) in devices.enumerated() where device?.isRunning == false {
      report.unexpectedExits.append("device \(index) exited on its own (\(device?.status ?? 0)); see \(folder)/device\(index).log")
      try startDevice(index)
    }
    if !server.isRunning {
      report.unexpectedExits.append("the server exited on its own (\(server.status)); see \(folder)/server.log")
      try startServer()
    }
    if let rss = Self.residentKilobytes(server.pid) { report.serverMemory.append(rss) }
  }

  private static func residentKilobytes(_ pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  }

  // MARK: Faults

  private func injectFault() async throws {
    switch random.int(0..<10) {
    case 0..<5:
      let index = random.int(0..<options.devices)
      devices[index]?.kill()
      report.faults["device killed", default: 0] += 1
      try await Task.sleep(for: .milliseconds(random.int(100...2000)))
      try startDevice(index)
    case 5..<8:
      server.kill()
      report.faults["server killed", default: 0] += 1
      try await Task.sleep(for: .milliseconds(random.int(100...2000)))
      try startServer()
    default:
      let mode = random.chance(0.5) ? "immediate" : "fast"
      try postgres.stop(mode: mode)
      report.faults["PostgreSQL stopped (\(mode))", default: 0] += 1
      try await Task.sleep(for: .milliseconds(random.int(500...3000)))
      try postgres.start()
    }
  }

  // MARK: Heal and check

  private func heal(_ index: Int) async throws {
    let path = "\(folder)/device\(index).sqlite"
    guard FileManager.default.fileExists(atPath: path) else { return }
    var attempts = 0
    while true {
      do {
        return try await DeviceRole.heal(database: path, server: URL(string: "http://127.0.0.1:\(serverPort)/")!, user: user(of: index))
      } catch {
        attempts += 1
        if attempts >= 5 { throw HarnessError("device \(index) could not sync after the faults healed: \(error)") }
        try await Task.sleep(for: .seconds(1))
      }
    }
  }

  private func check() throws -> CheckResult {
    let histories = try (0..<options.devices).map { try DeviceHistory(index: $0, user: user(of: $0), path: "\(folder)/device\($0).sqlite") }
    var server = try ServerHistory(postgres: postgres, database: databaseName)
    server.leaveOut(user: "probe")
    return Checker(devices: histories, server: server).check()
  }

  // MARK: Latency

  /// Two devices of a user of their own running their clients as an app does: a write on one,
  /// four times a second, timed until the other's live query sees it. They run the second
  /// schema, which every schema of the server's keeps working.
  private func probeLatency(until end: Date) async throws -> [Duration] {
    let server = URL(string: "http://127.0.0.1:\(serverPort)/")!
    func device(_ name: String) throws -> (any DatabaseWriter, SyncClient) {
      let database = try openDatabase(.file("\(folder)/probe-\(name).sqlite"))
      try database.migrate(Array(StrataMigrations.all.prefix(2)))
      return (database, SyncClient(replica: try SyncReplica(database, tables: StrataSyncedTables.all), server: server) { "user-probe" })
    }
    let (writer, writerClient) = try device("writer")
    let (reader, readerClient) = try device("reader")
    let key = UUID().uuidString.lowercased()
    try await writer.write { db in try db.execute(sql: "INSERT INTO folders (id, name) VALUES (?, 'probe')", arguments: [key]) }
    try await writerClient.sync()
    try await readerClient.sync()
    let running = [Task { await writerClient.run() }, Task { await readerClient.run() }]
    defer { running.forEach { $0.cancel() } }
    let seen = AsyncStream<(Int, ContinuousClock.Instant)>.makeStream()
    let observing = Task {
      for try await rank in ValueObservation.tracking({ db in try Int.fetchOne(db, sql: "SELECT rank FROM folders WHERE id = ?", arguments: [key]) ?? -1 })
        .values(in: reader)
      {
        seen.continuation.yield((rank, .now))
      }
    }
    defer { observing.cancel() }
    var arrivals = seen.stream.makeAsyncIterator()
    var samples: [Duration] = []
    var change = 0
    while Date() < end {
      change += 1
      let written = ContinuousClock.now
      let rank = change
      try await writer.write { db in try db.execute(sql: "UPDATE folders SET rank = ? WHERE id = ?", arguments: [rank, key]) }
      while let (rank, at) = await arrivals.next() {
        if rank == change {
          samples.append(at - written)
          break
        }
      }
      try await Task.sleep(for: .milliseconds(250))
    }
    return samples
  }

  /// Stops every process; the run's folder stays when asked, and after a failure, for a look.
  private func cleanUp(keepingFolder: Bool) {
    for device in devices { device?.kill() }
    server?.kill()
    if let postgres { try? FileManager.default.copyItem(atPath: postgres.folder + "/server.log", toPath: folder + "/postgres.log") }
    postgres?.remove()
    if keepingFolder {
      log("the run's folder is kept: \(folder)")
    } else {
      try? FileManager.default.removeItem(atPath: folder)
    }
  }

  func log(_ line: String) {
    print("harness: \(line)")
  }
}
#endif
