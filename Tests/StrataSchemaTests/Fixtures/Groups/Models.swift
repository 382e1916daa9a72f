// Column groups: selections stored as their columns, nested, optional, and enums whose cases
// each hold one value (seed 004's attachments).
import Foundation
import Strata

struct Attachment: Table, Identifiable {
  let id: Int
  var kind: Kind

  enum Kind: Selection {
    case link(String)
    case note(String)
    case image(Attachment.Image)
  }

  struct Image: Selection {
    var caption = ""
    var url: String
  }
}

struct Shipment: Table, Identifiable {
  let id: UUID
  var route: Route
  var delivery: Delivery?
}

struct Route: Selection {
  var origin: String
  var bounds: Bounds
  var detour: Detour?
}

struct Bounds: Selection {
  var lower: Int
  var upper: Int
}

struct Detour: Selection {
  var via: String
}

enum Delivery: Selection {
  case deliveredAt(Date)
  case lost(reason: String)
}
