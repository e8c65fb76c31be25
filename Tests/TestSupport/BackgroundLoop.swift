import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs `step` over and over on a thread of its own until `stop()`: for work that blocks
/// (polling sockets, sampling /proc), so that it never ties up the cooperative pool that
/// every other test shares.
// @unchecked: `running` is only read and written under `lock`; `done` is a semaphore.
public final class BackgroundLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread (named `name`, for debuggers) right away.
    public init(name: String, _ step: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            while lock.withLock({ running }) { step() }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end and waits until the current step has returned. Idempotent.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { running = false; stopped = true }
            return !stopped
        }
        if first { done.wait() }
    }
}
