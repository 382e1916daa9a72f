// Column groups: Selections of columns used as properties of a table, stored as their columns.
import Foundation
import Strata

struct Timestamps: Selection {
  var createdAt: Date
  var updatedAt: Date?
}

struct Archive: Selection {
  var archivedAt: Date
  var reason: String
}

struct Memo: Table, Identifiable {
  let id: Int
  var body = ""
  var timestamps: Timestamps
  var archive: Archive?
}

/// A memo's body with its group, for passing a group into a Selection's columns.
struct MemoRow: Selection {
  let body: String
  let timestamps: Timestamps
}

/// An enum stored in one table (seed 004's attachments): each case's value in columns of its
/// own, NULL in the rows of the other cases.
struct Attachment: Table, Identifiable {
  let id: Int
  var kind: Kind

  enum Kind: Selection, Equatable {
    case link(String)
    case note(String)
    case image(Attachment.Image)
  }

  struct Image: Selection, Equatable {
    var caption = ""
    var url: String
  }
}

/// Groups inside groups, and an optional enum whose case has a label.
struct Shipment: Table, Identifiable {
  let id: Int
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

enum Delivery: Selection, Equatable {
  case deliveredAt(Date)
  case lost(reason: String)
}

/// A group with a column the database computes (StructuredQueries' nested generated column).
struct Lifetime: Selection {
  var createdAt: Date
  var deletedAt: Date?
  // @Generated(raw: "\"deletedAt\" IS NOT NULL", stored: true)
  var isDeleted: Bool
}

struct Record: Table, Identifiable {
  let id: Int
  var title = ""
  var lifetime: Lifetime
}

/// A table keyed by a column group: StructuredQueries' `MetadataID`.
struct MetadataID: Selection, Hashable {
  let recordID: UUID
  let recordType: String
}

struct Metadata: Table, Identifiable {
  let id: MetadataID
  var userModificationDate: Date
}

/// A table whose rows another table holds as an optional group (StructuredQueries'
/// `ItemWithTimestamp`): its columns, NULL when the scan has no parcel.
struct Parcel: Table {
  var label: String
  var weight = 0
  var size: Bounds
}

struct ParcelScan: Table, Identifiable {
  let id: Int
  var parcel: Parcel?
  var scannedAt: Date
}
