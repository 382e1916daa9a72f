import Foundation

extension [UInt8]: QueryRepresentable, QueryExpression, QueryBindable {
  public var queryBinding: QueryBinding { .blob(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode([UInt8].self) { value in
      if case .blob(let bytes) = value { return [UInt8](bytes) }
      return nil
    }
  }
}

extension Data: QueryBindable {
  public var queryBinding: QueryBinding { .blob([UInt8](self)) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Data.self) { value in
      if case .blob(let bytes) = value { return Data(bytes) }
      return nil
    }
  }
}
