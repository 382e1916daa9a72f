// On Apple platforms, live queries are SwiftUI dynamic properties, and `load` can animate the
// change. Everything else about them is platform-independent (and tested on Linux).
#if canImport(SwiftUI)
  import Foundation
  import StrataCore
  import SwiftUI

  extension FetchAll: DynamicProperty {}
  extension FetchOne: DynamicProperty {}
  extension Fetch: DynamicProperty {}

  extension FetchAll {
    /// Replaces the query, animating the change of rows with `animation`.
    @discardableResult
    public func load<From: StrataCore.Table & SendableMetatype>(
      _ statement: Where<From>, animation: Animation?
    ) async throws -> FetchSubscription where Element == From.QueryOutput {
      try await load(Self.rows(of: statement), wrapper: animating(animation))
    }

    /// Replaces the query with a statement that selects values, animating the change.
    @discardableResult
    public func load<Statement: SelectStatement & Sendable>(
      _ statement: Statement, animation: Animation?
    ) async throws -> FetchSubscription
    where Statement.QueryValue: QueryRepresentable, Element == Statement.QueryValue.QueryOutput {
      try await load(Self.rows(of: statement), wrapper: animating(animation))
    }
  }

  extension Fetch {
    /// Replaces the request, animating the change of value with `animation`.
    @discardableResult
    public func load<Request: FetchKeyRequest>(
      _ request: Request, animation: Animation?
    ) async throws -> FetchSubscription where Request.Value == Value {
      try await controller.load(.fetch(request.fetch), wrapper: animating(animation))
    }
  }

  /// Applies a delivery's changes inside `withAnimation` when it arrives on the main thread.
  private func animating(_ animation: Animation?) -> @Sendable (_ apply: () -> Void) -> Void {
    nonisolated(unsafe) let animation = animation
    return { apply in
      guard Thread.isMainThread else { return apply() }
      MainActor.assumeIsolated { withAnimation(animation) { apply() } }
    }
  }
#endif
