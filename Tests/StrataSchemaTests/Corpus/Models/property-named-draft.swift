struct Item: Table {
  let id: Int
  var Draft = ""
}
// expect: error 3:7 property 'Draft' has the name of a member Strata generates for 'Item',
