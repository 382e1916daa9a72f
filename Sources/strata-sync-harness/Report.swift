// The run's figures as the harness prints them.
#if SyncServer
import Foundation

extension HarnessReport {
  var summary: String {
    var lines = ["", "strata-sync-harness: \(passed ? "PASSED" : "FAILED")"]
    let injected = faults.values.reduce(0, +)
    lines.append("  devices \(devices), \(Int(seconds)) s, \(requests) requests through the proxy")
    lines.append("  writes \(check.writes) (\(Int(Double(check.writes) / max(seconds, 1))) a second), acknowledged \(check.acknowledged), acknowledged writes lost \(check.lost.count)")
    lines.append("  faults injected \(injected): " + faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    if !schemaMoves.isEmpty {
      lines.append(
        "  schemas: the server moved to " + schemaMoves.map { "\($0.schema) at \(Int($0.second)) s" }.joined(separator: ", ")
          + "; devices told to update the app \(devicesToldToUpdate) (their writes kept, synced after the update)")
    }
    lines.append("  converged \(String(format: "%.1f", convergenceSeconds)) s after the faults healed; rows held waiting on the server \(check.waiting.count)")
    if let peak = serverMemory.max(), let first = serverMemory.first, let last = serverMemory.last {
      lines.append("  server memory (RSS): first \(first / 1024) MiB, peak \(peak / 1024) MiB, last \(last / 1024) MiB")
    }
    if !latencies.isEmpty {
      let sorted = latencies.sorted()
      func percentile(_ p: Double) -> String {
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        return String(format: "%.1f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
      }
      lines.append("  sync latency (write to another device's live query, \(sorted.count) changes): p50 \(percentile(0.5)), p99 \(percentile(0.99))")
    }
    for (title, entries) in [
      ("lost", check.lost), ("diverged", check.diverged), ("phantoms", check.phantoms), ("broken", check.broken), ("unexpected exits", unexpectedExits),
      ("waiting", check.waiting),
    ] where !entries.isEmpty {
      lines.append("  \(title) (\(entries.count)):")
      lines += entries.prefix(15).map { "    \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
#endif
