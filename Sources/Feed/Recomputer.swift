import Diagnostics
import Threads
import Foundation
import Synchronization

/// The recompute thread's handle (any thread): its inbox, start and stop, a `Service`
/// of the daemon. The `RecomputeWorker` it runs is created inside the thread and never
/// leaves it, so the database connection it owns stays on one thread, as the compiler
/// checks.
final class Recomputer: Service {
    let name = "recompute"
    /// A build under way finishes first (seconds for a year-long view), then the
    /// database closes.
    let stopDeadline: Duration = .seconds(5)
    private let mailbox = Mailbox<RecomputeJob>()
    private let thread = Mutex<ServiceThread<Never>?>(nil)
    private let config: DaemonConfiguration
    private let log: Logger
    private let clocks: DaemonClocks
    private let epoch: String
    private let output: @Sendable (RecomputeOutput) -> Void

    init(config: DaemonConfiguration, log: Logger, clocks: DaemonClocks, epoch: String,
         output: @escaping @Sendable (RecomputeOutput) -> Void) {
        self.config = config
        self.log = log
        self.clocks = clocks
        self.epoch = epoch
        self.output = output
    }

    /// Starts the thread; returns once the database is open (or throws why it is not),
    /// so that the calendar list is known before the first client can ask for a view.
    func start() throws {
        let opened = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let (mailbox, config, log, clocks, epoch, output) = (mailbox, config, log, clocks, epoch, output)
        let started = ServiceThread<Never>(name: "eventd-recompute", stackSize: 8 << 20) { _ in
            let worker: RecomputeWorker
            do {
                worker = try RecomputeWorker(config: config, log: log, clocks: clocks, epoch: epoch,
                                             mailbox: mailbox, output: output)
            } catch {
                failure.withLock { $0 = error }
                opened.signal()
                return
            }
            opened.signal()
            worker.run()
        }
        thread.withLock { $0 = started }
        opened.wait()
        if let error = failure.withLock({ $0 }) {
            started.join(deadline: stopDeadline)
            throw error
        }
    }

    func submit(_ job: RecomputeJob) { mailbox.post(job) }

    /// Asks the worker to stop after the job under way (it then closes the database).
    func requestStop() { submit(.stop) }

    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }

    /// Stops the thread and waits (at most `stopDeadline`) until it has closed the database.
    func stop() {
        requestStop()
        _ = join(deadline: stopDeadline)
    }
}
