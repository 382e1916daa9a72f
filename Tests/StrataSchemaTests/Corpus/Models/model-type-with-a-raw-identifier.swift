struct `Odd Item`: Table { let id: Int }
// expect: error 1:8 'Odd Item': the generated code names this type, and the name "Odd Item
