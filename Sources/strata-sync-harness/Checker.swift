// What must hold after the faults heal, whatever they were: every device holds what the server
// holds of what its user may read; every acknowledged write is there or was superseded by a
// merge rule (a later write by stamp, a delete); no row or value appears that nobody wrote;
// counters hold every increment; references and unique values hold everywhere.
import Foundation

struct CheckResult {
  var writes = 0
  var acknowledged = 0
  var lost: [String] = []
  var diverged: [String] = []
  var phantoms: [String] = []
  var broken: [String] = []
  /// Rows the server keeps out of its tables (a unique value another row holds, a missing
  /// parent), with why: held, not lost.
  var waiting: [String] = []

  var failures: [String] { lost + diverged + phantoms + broken }
}

struct Checker {
  let devices: [DeviceHistory]
  let server: ServerHistory
  /// Every write of every device, by table, key and column ("" for the row's own insert or
  /// delete).
  private let writes: [String: [Write]]

  init(devices: [DeviceHistory], server: ServerHistory) {
    self.devices = devices
    self.server = server
    var writes: [String: [Write]] = [:]
    for device in devices {
      for write in device.writes { writes[Self.slot(write.table, write.key, write.column), default: []].append(write) }
    }
    self.writes = writes
  }

  private static func slot(_ table: String, _ key: String, _ column: String?) -> String {
    "\(table)/\(key)/\(column ?? "")"
  }

  func check() -> CheckResult {
    var result = CheckResult()
    result.waiting = server.waiting.map { "\($0.key): \($0.value)" }.sorted()
    checkConvergence(&result)
    checkIntegrity(&result)
    checkValues(&result)
    checkAcknowledged(&result)
    return result
  }

  // MARK: Convergence

  private func checkConvergence(_ result: inout CheckResult) {
    for device in devices {
      let expected = server.rows(readableBy: device.user)
      for (table, _) in HarnessTables.all {
        let mine = device.rows[table] ?? [:]
        let theirs = expected[table] ?? [:]
        for key in Set(mine.keys).union(theirs.keys).sorted() where mine[key] != theirs[key] {
          let waiting = server.waiting["\(table)/\(key)"].map { " (the server holds it waiting: \($0))" } ?? ""
          result.diverged.append(
            "device \(device.index) (\(device.user)): \(table) \(key) is \(Self.describe(mine[key])) there, \(Self.describe(theirs[key])) on the server\(waiting)")
        }
      }
    }
  }

  private static func describe(_ values: Values?) -> String {
    guard let values else { return "missing" }
    return values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value ?? "NULL")" }.joined(separator: " ")
  }

  // MARK: Integrity

  private func checkIntegrity(_ result: inout CheckResult) {
    let holders = [("server", server.rows)] + devices.map { ("device \($0.index)", $0.rows) }
    for (name, rows) in holders {
      let folders = rows["folders"] ?? [:]
      for (key, note) in rows["notes"] ?? [:] where folders[(note["folderID"] ?? nil) ?? ""] == nil {
        result.broken.append("\(name): note \(key) references folder \((note["folderID"] ?? nil) ?? "NULL"), which it does not hold")
      }
      var slugs: [String: String] = [:]
      for (key, folder) in folders {
        guard let slug = folder["slug"] ?? nil else { continue }
        if let other = slugs.updateValue(key, forKey: slug) { result.broken.append("\(name): folders \(other) and \(key) both hold slug \(slug)") }
      }
    }
  }

  // MARK: Values

  /// The write to a column with the latest stamp: the one its value must come from under the
  /// latest-wins rule (a write made after seeing another always has a later stamp).
  private func latest(_ table: String, _ key: String, _ column: String) -> Write? {
    (writes[Self.slot(table, key, column)] ?? []).filter { $0.operation != "add" }.max { $1.isLater(than: $0) }
  }

  private func written(_ table: String, _ key: String, _ column: String) -> [Write] {
    (writes[Self.slot(table, key, column)] ?? []).filter { $0.operation != "add" }
  }

  private func checkValues(_ result: inout CheckResult) {
    for (table, columns) in HarnessTables.all {
      for (key, values) in server.rows[table] ?? [:] {
        guard writes[Self.slot(table, key, nil)]?.contains(where: { $0.operation == "insert" }) == true else {
          result.phantoms.append("server: \(table) \(key) was inserted by no device")
          continue
        }
        for column in columns {
          let value = values[column] ?? nil
          let candidates = written(table, key, column)
          guard let latest = latest(table, key, column) else {
            // A column a newer schema added holds NULL in rows no device of that schema wrote.
            if value != nil { result.phantoms.append("server: \(table) \(key).\(column) holds \(value ?? ""), written by no device") }
            continue
          }
          let problem: String? =
            switch column {
            case "visits":
              Self.counter(value, expected: Int(latest.value ?? "") ?? 0, adds: writes[Self.slot(table, key, column)] ?? [])
            case "rank":
              Self.maximum(value, latest: latest, candidates: candidates)
            case "labels":
              Self.union(value, latest: latest, candidates: candidates)
            case "summary":
              Self.custom(value, latest: latest, candidates: candidates)
            default:
              value == latest.value ? nil : "holds \(value ?? "NULL"); the latest write (device \(latest.device), clock \(latest.clock)) was \(latest.value ?? "NULL")"
            }
          if let problem { result.phantoms.append("server: \(table) \(key).\(column) \(problem)") }
        }
      }
    }
  }

  private static func counter(_ value: String?, expected initial: Int, adds: [Write]) -> String? {
    let total = initial + adds.filter { $0.operation == "add" }.reduce(0) { $0 + (Int($1.value ?? "") ?? 0) }
    return Int(value ?? "") == total ? nil : "holds \(value ?? "NULL"), not \(total), the first value and every increment"
  }

  private static func maximum(_ value: String?, latest: Write, candidates: [Write]) -> String? {
    guard candidates.contains(where: { $0.value == value }) else { return "holds \(value ?? "NULL"), which no device wrote" }
    return (Int(value ?? "") ?? .min) >= (Int(latest.value ?? "") ?? .min) ? nil : "holds \(value ?? "NULL"), less than the latest write \(latest.value ?? "NULL")"
  }

  private static func elements(_ json: String?) -> Set<String> {
    guard let data = json?.data(using: .utf8), let array = try? JSONSerialization.jsonObject(with: data) as? [String] else { return [] }
    return Set(array)
  }

  private static func union(_ value: String?, latest: Write, candidates: [Write]) -> String? {
    let held = elements(value)
    let writtenElements = candidates.reduce(into: Set<String>()) { $0.formUnion(elements($1.value)) }
    if !held.isSubset(of: writtenElements) { return "holds \(held.subtracting(writtenElements).sorted()), which no device wrote" }
    return elements(latest.value).isSubset(of: held) ? nil : "lacks elements of the latest write \(latest.value ?? "NULL")"
  }

  private static func parts(_ summary: String?) -> [String] {
    (summary ?? "").components(separatedBy: " + ")
  }

  private static func custom(_ value: String?, latest: Write, candidates: [Write]) -> String? {
    let writtenValues = Set(candidates.compactMap(\.value))
    if let stranger = parts(value).first(where: { !writtenValues.contains($0) }) { return "holds \(stranger), which no device wrote" }
    return parts(value).contains(latest.value ?? "") ? nil : "lacks the latest write \(latest.value ?? "NULL")"
  }

  // MARK: Acknowledged writes

  private func deleted(_ table: String, _ key: String) -> Bool {
    writes[Self.slot(table, key, nil)]?.contains { $0.operation == "delete" } == true
  }

  private func checkAcknowledged(_ result: inout CheckResult) {
    for device in devices {
      for write in device.writes {
        if write.column == nil || write.operation == "add" { result.writes += 1 }
        guard write.id <= device.acknowledged else { continue }
        if write.column == nil || write.operation == "add" { result.acknowledged += 1 }
        let row = server.rows[write.table]?[write.key]
        let place = "\(write.table) \(write.key)"
        let gone: Bool = {
          if deleted(write.table, write.key) { return true }
          if write.table == "notes", let folder = writes[Self.slot("notes", write.key, "folderID")]?.first?.value ?? nil {
            return deleted("folders", folder) || server.waiting["folders/\(folder)"] != nil
          }
          return false
        }()
        let waiting = server.waiting["\(write.table)/\(write.key)"] != nil
        switch write.operation {
        case "delete":
          // The server refuses a delete of a shared record by a user who does not own it, and
          // the device takes the record back: the rule, not a loss.
          let refused = write.table == "folders" && server.owners[write.key].map { $0 != device.user } == true
          if row != nil && !refused { result.lost.append("device \(device.index): the acknowledged delete of \(place) (clock \(write.clock)) is undone on the server") }
        case _ where row == nil:
          if !gone && !waiting { result.lost.append("device \(device.index): \(place), written and acknowledged (\(write.operation) #\(write.id)), is not on the server") }
        case "add":
          break
        case "insert" where write.column == nil:
          break
        default:
          // A counter's every increment is checked against its total (``checkValues``).
          guard let column = write.column, column != "visits", let latest = latest(write.table, write.key, column) else { continue }
          // A later write to the column supersedes this one under every rule but the counter.
          if latest.isLater(than: write) { continue }
          let value = (row?[column]) ?? nil
          let kept: Bool =
            switch column {
            case "rank": (Int(value ?? "") ?? .min) >= (Int(write.value ?? "") ?? .min)
            case "labels": Self.elements(write.value).isSubset(of: Self.elements(value))
            case "summary": Self.parts(value).contains(write.value ?? "")
            default: value == write.value
            }
          if !kept {
            result.lost.append("device \(device.index): \(place).\(column) = \(write.value ?? "NULL") (acknowledged, latest by stamp) is \(value ?? "NULL") on the server")
          }
        }
      }
    }
  }
}
