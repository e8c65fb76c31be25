import CLinux
import Dispatch
import Glibc
import Synchronization
import Threads

/// Many connections' queued chunks, to be written in one go: each job is one
/// connection's descriptor and a run of `chunks`. The chunks are the queues' own arrays
/// (retained, never copied), so a diff encoded once stays one buffer however many jobs
/// point at it.
public struct WriteBatch: Sendable {
    struct Job: Sendable {
        let fd: Int32
        let chunks: Range<Int>
        let offset: Int
        /// The last chunk is a piece that others follow: the write stops after it.
        let stopsAfterLast: Bool
    }

    private(set) var jobs: [Job] = []
    private var chunks: [[UInt8]] = []

    /// An empty batch, with room for `capacity` jobs of one chunk.
    public init(capacity: Int = 0) {
        jobs.reserveCapacity(capacity)
        chunks.reserveCapacity(capacity)
    }

    /// How many jobs the batch holds.
    public var count: Int { jobs.count }

    /// Adds a job: `count` chunks to `fd` (`chunk(i)` the `i`th), the first from byte
    /// `offset` on, stopping after the last one when `stopsAfterLast` (as `Reactor.write`
    /// does after a marked chunk).
    public mutating func add(fd: Int32, offset: Int, stopsAfterLast: Bool, count: Int, chunk: (Int) -> [UInt8]) {
        let start = chunks.count
        for i in 0..<count { chunks.append(chunk(i)) }
        jobs.append(Job(fd: fd, chunks: start..<chunks.count, offset: offset, stopsAfterLast: stopsAfterLast))
    }

    /// Writes the jobs of `range`, each as `Reactor.write` would; results in job order.
    func write(_ range: Range<Int>, vectors: inout [iovec]) -> [Reactor.Written] {
        var results: [Reactor.Written] = []
        results.reserveCapacity(range.count)
        for job in jobs[range] {
            let first = job.chunks.lowerBound, last = job.chunks.count - 1
            results.append(Reactor.send(fd: job.fd, count: job.chunks.count, from: job.offset, chunk: { chunks[first + $0] },
                                        stopAfter: { job.stopsAfterLast && $0 == last }, vectors: &vectors))
        }
        return results
    }
}

/// Threads that write part of a `WriteBatch` while the calling thread writes the rest,
/// so that one diff to thousands of subscribers is handed to the kernel from every core
/// instead of one. The rules per connection stay what they were: a job is one
/// connection's whole queue, written by one thread (`Reactor.claimForBatch` keeps a
/// connection out of a second job), and `write` returns only when every job is done, so
/// the caller alone reads the results and tells its state machine, in job order.
///
/// Owns its threads: `stop` (or deinit) asks them to stop and joins them.
public final class WriterPool {
    /// Where a helper thread hands its results back.
    private final class Handback: Sendable {
        let done = DispatchSemaphore(value: 0)
        let results = Mutex<[Reactor.Written]>([])
    }

    private struct Work: Sendable {
        let batch: WriteBatch
        let range: Range<Int>
    }

    /// Fewer jobs than this per thread are written by the caller alone: waking a thread
    /// costs more than the writes it would take over.
    public let minimumJobsPerThread: Int

    private var helpers: [(thread: ServiceThread<Work>, handback: Handback)] = []
    private var vectors: [iovec] = []

    /// A pool of `threads` writers in all: the caller and `threads - 1` helpers, each
    /// given a share of a batch only when it has `minimumJobsPerThread` jobs for each
    /// (256 by default: a few hundred `sendmsg`s take about as long as a thread's wake-up).
    public init(threads: Int, name: String, minimumJobsPerThread: Int = 256) {
        self.minimumJobsPerThread = max(1, minimumJobsPerThread)
        for k in 1..<max(1, threads) {
            let handback = Handback()
            let thread = ServiceThread<Work>(name: "\(name)-\(k)") { thread in
                var vectors: [iovec] = []
                while !thread.isStopRequested {
                    for work in thread.take(waitingAtMost: .seconds(3600)) {
                        let written = work.batch.write(work.range, vectors: &vectors)
                        handback.results.withLock { $0 = written }
                        handback.done.signal()
                    }
                }
            }
            helpers.append((thread, handback))
        }
    }

    deinit { stop() }

    /// Writers in all (the caller included).
    public var threads: Int { helpers.count + 1 }

    /// Writes every job of `batch`, the first share on the calling thread and the others
    /// on the helpers at the same time; returns when all are done, results in job order.
    public func write(_ batch: WriteBatch) -> [Reactor.Written] {
        let parts = max(1, min(threads, batch.count / minimumJobsPerThread))
        guard parts > 1 else { return batch.write(0..<batch.count, vectors: &vectors) }
        let share = (batch.count + parts - 1) / parts
        let ranges = (0..<parts).map { k in k * share..<min(batch.count, (k + 1) * share) }
        for (helper, range) in zip(helpers, ranges.dropFirst()) { helper.thread.post(Work(batch: batch, range: range)) }
        var results = batch.write(ranges[0], vectors: &vectors)
        for helper in helpers.prefix(parts - 1) {
            helper.handback.done.wait()
            results += helper.handback.results.withLock { $0 }
        }
        return results
    }

    /// Stops and joins the helper threads (each is idle between batches); idempotent.
    public func stop() {
        for helper in helpers { helper.thread.requestStop() }
        for helper in helpers { helper.thread.join(deadline: .seconds(1)) }
        helpers.removeAll()
    }

    /// The CPUs this process may run on (its affinity mask, which systemd's
    /// `CPUAffinity=` and containers narrow), at least 1.
    public static func availableCores() -> Int {
        let count = Int(eventd_available_cpus())
        return count > 0 ? count : max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
