/// Replica ids: 32 lowercase hexadecimal digits, which the migration that first syncs a table
/// makes from 16 random bytes.
package enum ReplicaID {
  /// Whether `id` is a replica id. Ids become keys of the version vectors' JSON, so nothing
  /// else may pass.
  package static func isValid(_ id: String) -> Bool {
    id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
