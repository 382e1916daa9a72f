struct Publishers: Table, Identifiable { let id: Int }
struct Book: Table, Identifiable {
  let id: Int
  var publisherID: Publisher.ID
}
// expect: error 4:7 'publisherID: Publisher.ID': no type 'Publisher' is declared in this target (did you mean 'Publishers'?)
