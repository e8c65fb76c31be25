import Foundation
import Synchronization

/// A thread that computes one value; `join()` waits for it on a semaphore.
///
/// Checked `Sendable`: the result is handed over in a `Mutex`, and the body is a
/// `@Sendable` closure, so whatever it reads must be Sendable too.
package final class WorkerThread<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts a thread (named `name`, with a stack of `stackSize` bytes) running `body`.
    package init(name: String, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    /// Waits for the thread to finish and returns what it computed (once).
    package func join() -> Value {
        done.wait()
        return result.withLock { $0.take()! }
    }
}
