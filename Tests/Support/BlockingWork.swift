import Foundation
import Testing

/// Threads of their own for tests that wait without suspending: on a child process (`psql`
/// for the planner's PostgreSQL replays, the `strata` tool, a server), through APIs that are
/// synchronous because the command line that uses them is.
///
/// Swift's tasks share one thread per core (two on CI's machine). A test that blocks one of them
/// holds it from every other test: in one run, the PostgreSQL planner's tests held both for
/// about three minutes, so no other test resumed after its first `await` — the live-query stress
/// test, 2 seconds alone, took 290 with its load threads spinning all the while, and the
/// PostgreSQL runtime tests waited up to 300 seconds for a connection whose client could not run.
/// A suite marked `.blockingWork` runs on these threads instead; they are not for CPU work,
/// which the shared threads already divide between the cores.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class BlockingWorkExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor `.blockingWork` runs tests on.
  public static let shared = BlockingWorkExecutor(threads: max(4, ProcessInfo.processInfo.activeProcessorCount))

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var next = 0

  private init(threads: Int) {
    for index in 0..<threads {
      // Named from within: a thread otherwise takes its creator's name (a thread of the shared
      // pool's), and would not be told apart in a debugger or profile.
      Thread.detachNewThread { [unowned self] in
        Thread.current.name = "blocking-work-\(index)"
        self.work()
      }
    }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.withLock {
      jobs.append(job)
      condition.signal()
    }
  }

  /// Runs `operation` in a child task that prefers this executor, and so starts on it.
  /// (`withTaskExecutorPreference` alone moves a task only when it is next enqueued, and code
  /// that never suspends would stay on the thread it started on.)
  func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
    try await withoutActuallyEscaping(operation) { operation in
      try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask(executorPreference: self) { try await operation() }
        return try await group.next()!
      }
    }
  }

  private func work() {
    while true {
      let job = condition.withLock {
        while next == jobs.count { condition.wait() }
        let job = jobs[next]
        next += 1
        // Drop the jobs taken so far once they are half the array, so it stays small.
        if next * 2 > jobs.count, next > 64 {
          jobs.removeFirst(next)
          next = 0
        }
        return job
      }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Runs a suite's or a test's code on ``BlockingWorkExecutor``.
public struct BlockingWorkTrait: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Each test case, not the suite around it, so that test cases run side by side as before.
    guard testCase != nil else { return try await function() }
    try await runBlockingWork(function)
  }
}

extension Trait where Self == BlockingWorkTrait {
  /// The suite's or test's code waits for other processes without suspending: it runs on
  /// threads of its own, not those Swift's tasks share (``BlockingWorkExecutor``).
  public static var blockingWork: Self { BlockingWorkTrait() }
}

/// Runs `work`, which waits without suspending, on ``BlockingWorkExecutor``: for a test's step
/// that blocks where the rest of the test must not (a server in the same process needs the
/// shared threads while it runs).
public func blockingWork<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T {
  try await runBlockingWork { try work() }
}

/// `operation` on ``BlockingWorkExecutor`` where the system has task executors (every Linux; on
/// Apple platforms from macOS 15 and iOS 18), else where it is.
private func runBlockingWork<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    try await BlockingWorkExecutor.shared.run(operation)
  } else {
    try await operation()
  }
}
