// strata-sync-harness: sync broken on purpose. See Documentation/SyncHarness.md.
//
//   strata-sync-harness run [--devices 20] [--duration 60s|30m] [--no-faults] [--one-schema] [--seed N] [--keep]
//   strata-sync-harness server --postgres URL --port P [--schema "3; from=2"]    (started by `run`)
//   strata-sync-harness device --database F --server URL --user U --schema N ...  (started by `run`)
import Foundation
import StrataSync

signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst(2))
let role = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "run"

func value(_ name: String, in arguments: [String] = arguments) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

/// `90`, `90s`, `30m`, `1h` as seconds.
func seconds(_ text: String) -> Double? {
  let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
  if let last = text.last, let unit = units[last] { return Double(text.dropLast()).map { $0 * unit } }
  return Double(text)
}

#if SyncServer
do {
  switch role {
  case "server":
    guard let url = value("--postgres"), let port = value("--port").flatMap(Int.init) else { throw HarnessError("server needs --postgres and --port") }
    try await ServerRole.run(postgres: url, port: port, schema: value("--schema").flatMap(SyncSchema.init(headerValue:)))
  case "device":
    var options = DeviceOptions()
    options.database = value("--database") ?? ""
    options.server = URL(string: value("--server") ?? "") ?? options.server
    options.user = value("--user") ?? ""
    options.partner = value("--partner")
    options.isFirstDevice = arguments.contains("--first")
    options.skewMilliseconds = Int64(value("--skew") ?? "") ?? 0
    options.seed = UInt64(value("--seed") ?? "") ?? 1
    options.schema = Int(value("--schema") ?? "") ?? options.schema
    try await DeviceRole.run(options)
  case "run":
    var options = HarnessOptions()
    if let devices = value("--devices").flatMap(Int.init) { options.devices = devices }
    if let duration = value("--duration").flatMap(seconds) { options.duration = duration }
    if let seed = value("--seed").flatMap({ UInt64($0) }) { options.seed = seed }
    options.faults = !arguments.contains("--no-faults")
    options.keep = arguments.contains("--keep")
    options.schemaChanges = !arguments.contains("--one-schema")
    let report = try await Orchestrator(options: options).run()
    print(report.summary)
    exit(report.passed ? 0 : 1)
  default:
    throw HarnessError("unknown role \(role): run, server or device")
  }
} catch {
  FileHandle.standardError.write(Data("strata-sync-harness: error: \(error)\n".utf8))
  exit(1)
}
#else
FileHandle.standardError.write(Data("strata-sync-harness needs the SyncServer trait: swift run --enable-all-traits strata-sync-harness\n".utf8))
exit(2)
#endif
