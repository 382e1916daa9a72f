typealias Left = Right
typealias Right = Left
struct Item: Table {
  let id: Int
  var value: Left
}
// expect: error 5:7 'Left' is defined in terms of itself
