/// The known name closest to a misspelled one, for "did you mean" in messages.
enum NearestName {
  /// The candidate within two edits of `name` (ignoring case), the closest first, and of those
  /// as close, the first of `preferring` (then by name); nil when none is that close.
  static func among(_ candidates: some Sequence<String>, to name: String, preferring: [String] = []) -> String? {
    let target = name.lowercased()
    guard !target.isEmpty else { return nil }
    func rank(_ candidate: String) -> Int { preferring.firstIndex(of: candidate) ?? preferring.count }
    let best = candidates.filter { !$0.isEmpty && $0 != name }.map { ($0, editDistance(target, $0.lowercased())) }
      .min { ($0.1, rank($0.0), $0.0) < ($1.1, rank($1.0), $1.0) }
    guard let best, best.1 <= 2 else { return nil }
    return best.0
  }

  /// Levenshtein distance; both names are non-empty.
  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
