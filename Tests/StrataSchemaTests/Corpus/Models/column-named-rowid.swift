struct Item: Table {
  let id: Int
  var rowid = 0
  // @Column("OID")
  var other = 0
}
// expect: error 3:7 column name "rowid" would hide SQLite's rowid, which Strata uses to up
// expect: error 4:14 column name "OID" would hide SQLite's rowid, which Strata uses to upda
