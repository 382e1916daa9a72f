struct Item: Table {
  let id: Int
  struct Draft { var id = 0 }
}
// expect: error 3:10 'Item' declares its own 'Draft', which Strata generates for it; rename
