import Diagnostics
import Threads
import Foundation
import Synchronization

/// The recompute thread's handle (any thread): its inbox, start and join. The
/// `RecomputeWorker` it runs is created inside the thread and never leaves it, so the
/// database connection it owns stays on one thread, as the compiler checks.
final class Recomputer: Sendable {
    private let mailbox = Mailbox<RecomputeJob>()
    private let finished = DispatchSemaphore(value: 0)

    init() {}

    /// Starts the thread; returns once the database is open (or throws why it is not),
    /// so that the calendar list is known before the first client can ask for a view.
    func start(config: DaemonConfiguration, log: Logger, clocks: DaemonClocks, epoch: String,
               output: @escaping @Sendable (RecomputeOutput) -> Void) throws {
        let opened = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let mailbox = self.mailbox
        let finished = self.finished
        let thread = Thread {
            let worker: RecomputeWorker
            do {
                worker = try RecomputeWorker(config: config, log: log, clocks: clocks, epoch: epoch,
                                             mailbox: mailbox, output: output)
            } catch {
                failure.withLock { $0 = error }
                opened.signal()
                finished.signal()
                return
            }
            opened.signal()
            worker.run()
            finished.signal()
        }
        thread.name = "eventd-recompute"
        thread.stackSize = 8 << 20
        thread.start()
        opened.wait()
        if let error = failure.withLock({ $0 }) {
            finished.wait()
            throw error
        }
    }

    func submit(_ job: RecomputeJob) { mailbox.post(job) }

    /// Stops the thread and waits until it has closed the database.
    func stop() {
        submit(.stop)
        finished.wait()
    }
}
