/// The conditions of a `WHERE`, in order, the first held inline.
///
/// Most statements have one condition (`Player.find(id)`, and the update or delete made from
/// it): held in an array, it cost an allocation and the array's growth from empty on every such
/// statement, a third of what a find's building adds to running its SQL.
@usableFromInline
struct Conditions: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
  /// The first condition, when ``hasHead``; an empty fragment otherwise. Not an optional: the
  /// optional's checks and copies cost a find's render more than the array did.
  @usableFromInline var head = QueryFragment()
  @usableFromInline var hasHead = false
  /// The conditions after the first.
  @usableFromInline var tail: [QueryFragment] = []

  @inlinable init() {}

  @usableFromInline init(arrayLiteral elements: QueryFragment...) {
    append(contentsOf: elements)
  }

  @usableFromInline init(_ conditions: [QueryFragment]) {
    append(contentsOf: conditions)
  }

  @inlinable var startIndex: Int { 0 }
  @inlinable var endIndex: Int { hasHead ? 1 + tail.count : 0 }

  @inlinable subscript(position: Int) -> QueryFragment {
    position == 0 ? head : tail[position - 1]
  }

  /// The one condition, when there is exactly one.
  @inlinable var only: QueryFragment? {
    hasHead && tail.isEmpty ? head : nil
  }

  /// Appends `condition` after the others.
  @inlinable mutating func append(_ condition: QueryFragment) {
    if !hasHead {
      head = condition
      hasHead = true
    } else {
      tail.append(condition)
    }
  }

  /// Appends `conditions` after the others, in order. (Concrete rather than generic: a debug
  /// build's unspecialized iteration allocated.)
  @usableFromInline mutating func append(contentsOf conditions: [QueryFragment]) {
    for condition in conditions { append(condition) }
  }

  /// Appends another statement's conditions after these, in order.
  @usableFromInline mutating func append(contentsOf conditions: Conditions) {
    guard conditions.hasHead else { return }
    append(conditions.head)
    tail.append(contentsOf: conditions.tail)
  }
}
