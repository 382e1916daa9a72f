struct Row: Selection {
  // @Column("count")
  let total: Int
}
// expect: error 2:14 this @Column argument does nothing on 'total', a field of the Selectio
