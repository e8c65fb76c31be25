import Foundation
import Synchronization
import Threads

/// The threads that fetch URLs (`LiveSourceDefaults.concurrentFetches`), each with its
/// own `HTTPFetcher`, so that no network wait is ever on the feed's or the runner's
/// thread. They start with the first job (a daemon without URL sources starts none,
/// and loads no TLS library). The scheduler never hands out more jobs than there are
/// threads, so the queue holds at most that many.
final class FetchPool: Sendable {
    struct Job: Sendable {
        var name: String
        var url: String
        var etag: String?
        var lastModified: String?
    }

    private struct State {
        var queue: [Job] = []
        var stopping = false
        var started = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let threads = Mutex<[ServiceThread<Never>]>([])
    private let count: Int
    private let limits: HTTPLimits
    private let shouldStop: @Sendable () -> Bool
    private let deliver: @Sendable (String, Result<FetchResult, FetchFailure>) -> Void

    /// A pool of `count` threads; each result goes to `deliver` (from the fetching thread).
    init(count: Int, limits: HTTPLimits, shouldStop: @escaping @Sendable () -> Bool,
         deliver: @escaping @Sendable (String, Result<FetchResult, FetchFailure>) -> Void) {
        self.count = count
        self.limits = limits
        self.shouldStop = shouldStop
        self.deliver = deliver
    }

    func submit(_ job: Job) {
        let start = state.withLock { state -> Bool in
            state.queue.append(job)
            defer { state.started = true }
            return !state.started
        }
        if start { startThreads() }
        available.signal()
    }

    private func startThreads() {
        let started = (0..<count).map { index in
            ServiceThread<Never>(name: "eventd-fetch-\(index + 1)") { [self] _ in
                // The fetcher (a libcurl handle) is created and used on this thread only.
                let fetcher = Result { try HTTPFetcher(limits: limits, shouldStop: shouldStop) }
                while let job = next() {
                    let result: Result<FetchResult, FetchFailure>
                    switch fetcher {
                    case .success(let fetcher):
                        do { result = .success(try fetcher.fetch(job.url, etag: job.etag, lastModified: job.lastModified)) }
                        catch { result = .failure(error as? FetchFailure ?? FetchFailure(.network, "\(error)")) }
                    case .failure(let error):
                        result = .failure(FetchFailure(.network, "\(error)"))
                    }
                    deliver(job.name, result)
                }
            }
        }
        threads.withLock { $0 = started }
    }

    /// The next job, waiting for one; nil when stopping.
    private func next() -> Job? {
        while true {
            available.wait()
            let job: Job?? = state.withLock { state in
                if state.stopping { return .some(nil) }
                return state.queue.isEmpty ? nil : .some(state.queue.removeFirst())
            }
            if let job { return job }
        }
    }

    /// Stops the threads and waits for them, at most `deadline` in all (a running fetch
    /// sees `shouldStop` within about a second); whether all ended.
    @discardableResult
    func stop(within deadline: Duration) -> Bool {
        let started = state.withLock { state -> Bool in
            state.stopping = true
            return state.started
        }
        guard started else { return true }
        for _ in 0..<count { available.signal() }
        let until = MonotonicInstant.now() + deadline
        return threads.withLock { $0 }.allSatisfy { $0.join(deadline: until - MonotonicInstant.now()) }
    }
}
