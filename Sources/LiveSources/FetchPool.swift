import Foundation
import Synchronization

/// The threads that fetch URLs (`LiveSourceDefaults.concurrentFetches`), each with its
/// own `HTTPFetcher`, so that no network wait is ever on the feed's or the runner's
/// thread. The scheduler never hands out more jobs than there are threads, so the
/// queue holds at most that many.
final class FetchPool: Sendable {
    struct Job: Sendable {
        var name: String
        var url: String
        var etag: String?
        var lastModified: String?
    }

    private let jobs = Mutex<(queue: [Job], stopping: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let count: Int

    /// Starts `count` threads; each result goes to `deliver` (from the fetching thread).
    init(count: Int, limits: HTTPLimits, shouldStop: @escaping @Sendable () -> Bool,
         deliver: @escaping @Sendable (String, Result<FetchResult, FetchFailure>) -> Void) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in
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
                ended.signal()
            }
            thread.name = "eventd-fetch-\(index + 1)"
            thread.start()
        }
    }

    func submit(_ job: Job) {
        jobs.withLock { $0.queue.append(job) }
        available.signal()
    }

    /// The next job, waiting for one; nil when stopping.
    private func next() -> Job? {
        while true {
            available.wait()
            let job: Job?? = jobs.withLock { state in
                if state.stopping { return .some(nil) }
                return state.queue.isEmpty ? nil : .some(state.queue.removeFirst())
            }
            if let job { return job }
        }
    }

    /// Stops the threads and waits for them (a running fetch sees `shouldStop` within
    /// about a second; after 3 s the threads are left to end on their own).
    func stop() {
        jobs.withLock { $0.stopping = true }
        for _ in 0..<count { available.signal() }
        let deadline = DispatchTime.now() + .seconds(3)
        for _ in 0..<count where ended.wait(timeout: deadline) == .timedOut { break }
    }
}
