import Foundation

extension UUID {
  /// Stores a UUID as a 16-byte BLOB instead of the default 36-character TEXT.
  public struct BytesRepresentation: QueryBindable, Hashable, Sendable {
    public var queryOutput: UUID

    public init(queryOutput: UUID) {
      self.queryOutput = queryOutput
    }

    public var queryBinding: QueryBinding {
      .blob(withUnsafeBytes(of: queryOutput.uuid) { [UInt8]($0) })
    }

    public init(decoder: inout some QueryDecoder) throws {
      queryOutput = try decoder.decode(UUID.self) { column in
        guard case .blob(let bytes) = column, bytes.count == 16 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        return UUID(uuid: uuid)
      }
    }
  }
}
