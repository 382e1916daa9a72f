struct A: Table {
  // @Column(primaryKey: true)
  let bKey: B.ID
}
struct B: Table {
  // @Column(primaryKey: true)
  let aKey: A.ID
}
// expect: error 3:7 'bKey' references the primary key of 'B', which has no storage of its
// expect: error 7:7 'aKey' references the primary key of 'A', which has no storage of its
