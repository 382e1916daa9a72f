struct Item: Table {
  let id: Int
  var primaryKey = 0
}
// expect: error 3:7 property 'primaryKey' has the name of a member Strata generates for 'I
