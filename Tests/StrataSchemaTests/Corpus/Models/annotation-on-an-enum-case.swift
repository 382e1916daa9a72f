enum Status: String {
  // @Column("on")
  case active
  case archived
}
struct Item: Table { let id: Int; var status = Status.active }
// expect: error 2:6 @Column above an enum case does nothing: annotations apply to types an
