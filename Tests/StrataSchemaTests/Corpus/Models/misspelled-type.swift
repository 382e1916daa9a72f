struct Note: Table, Identifiable {
  let id: Int
  var count: Intt
}
// expect: error 3:7 'count: Intt': no type 'Intt' is declared in this target (did you mean 'Int'?)
