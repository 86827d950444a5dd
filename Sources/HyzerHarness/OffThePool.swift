import Dispatch

/// Runs `work` (a test that computes for a second or more) on a thread of its own instead of
/// Swift's cooperative pool.
///
/// The pool has as many threads as cores: two on CI. Two tests computing at once held both, and
/// every test waiting meanwhile stood still: a child process's start was not even tried for 30 s
/// ("did not start within 30 s"). Off the pool these tests share the cores as the kernel
/// schedules, and the pool stays free for the tests that wait. The task is still the test's own
/// (its `#expect`s count); only the executor its code runs on changes. The heavy tests take turns
/// on one thread, and so do their child tasks: `work` must never block waiting for one of them.
public func offThePool<T, Failure: Error>(_ work: () async throws(Failure) -> T) async throws(Failure) -> T {
    try await withTaskExecutorPreference(HeavyWork.executor, operation: work)
}

private final class HeavyWork: TaskExecutor {
    static let executor = HeavyWork()
    private let queue = DispatchQueue(label: "hyzer.harness.heavy-work")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
