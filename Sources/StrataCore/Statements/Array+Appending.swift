extension Array {
  /// Appends `other`'s elements. An empty array takes `other`'s storage instead of copying it
  /// into an allocation of its own: building a statement appends a clause's first terms (a
  /// `where`'s conditions, a `select`'s columns, a fragment's bindings) to empty arrays far more
  /// often than to others.
  @inlinable
  mutating func appendTakingStorage(_ other: [Element]) {
    if isEmpty {
      self = other
    } else {
      self += other
    }
  }
}
