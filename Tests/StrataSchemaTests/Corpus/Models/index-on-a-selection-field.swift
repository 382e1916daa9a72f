struct Item: Table { let id: Int }
struct Row: Selection {
  let item: Item
  // @Index
  let total: Int
}
// expect: error 4:6 @Index on 'total' does nothing: 'Row' is a Selection, whose fields are
