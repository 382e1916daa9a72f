struct Row: Selection {
  let Columns: Int
}
// expect: error 2:7 field 'Columns' has the name of a member Strata generates for 'Row', s
