import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A long-lived named thread: an inbox any thread posts to, a stop request that wakes
/// it (and interrupts a blocking call it registered), and `join(deadline:)`, which waits
/// at most a `Duration` and says whether the thread ended. Every service of the project
/// runs on one, so none builds its own thread, semaphore and stop logic.
///
/// Checked `Sendable`: the inbox is a `Mailbox`, the flags are atomics, the interrupt
/// lives in a `Mutex`, and the body is a `@Sendable` closure.
public final class ServiceThread<Message: Sendable>: Sendable {
    public let name: String
    private let inbox: Mailbox<Message>
    /// Wakes `take`/`pause` on a stop request when the inbox has no wake of its own.
    private let signal = DispatchSemaphore(value: 0)
    private let customWake: (@Sendable () -> Void)?
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    private let interrupt = Mutex<(@Sendable () -> Void)?>(nil)

    /// Starts a thread named `name` running `body` (with glibc's default stack, 8 MiB of
    /// address space, touched only as used), which should return soon after
    /// `isStopRequested` turns true. `wake`, when given, is called after each post and
    /// at a stop request instead of the inbox's semaphore (a thread that waits in `poll`
    /// watches a `WakePipe`, and takes its messages with `takeAll`).
    public init(name: String, stackSize: Int = 8 << 20, wake: (@Sendable () -> Void)? = nil,
                _ body: @escaping @Sendable (ServiceThread<Message>) -> Void) {
        self.name = name
        customWake = wake
        let signal = signal
        inbox = Mailbox(wake: wake ?? { signal.signal() })
        let thread = Thread { [self] in
            body(self)
            finished.store(true, ordering: .sequentiallyConsistent)
            ended.signal()
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    // MARK: - Any thread

    /// Adds `message` to the thread's inbox and wakes it.
    public func post(_ message: Message) { inbox.post(message) }

    /// Asks the thread to stop: sets the flag, interrupts the blocking call it
    /// registered (`interruptible`), and wakes its wait. Returns at once.
    public func requestStop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        interrupt.withLock { $0 }?()
        // Both: a thread with a wake of its own may still `pause`.
        customWake?()
        signal.signal()
    }

    /// Whether `requestStop` was called.
    public var isStopRequested: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Whether the body has returned.
    public var hasEnded: Bool { finished.load(ordering: .sequentiallyConsistent) }

    /// Waits at most `deadline` for the body to return; whether it did.
    @discardableResult
    public func join(deadline: Duration) -> Bool {
        if hasEnded { return true }
        guard ended.wait(timeout: DispatchTime.now() + deadline.dispatchInterval) == .success else { return hasEnded }
        ended.signal()  // for any other joiner
        return true
    }

    // MARK: - The thread itself

    /// Everything posted so far, oldest first (possibly nothing).
    public func takeAll() -> [Message] { inbox.takeAll() }

    /// Waits at most `wait` for a post or a stop request, then takes everything posted
    /// (a thread with a `wake` of its own is woken by posts through it: it calls
    /// `takeAll` instead).
    public func take(waitingAtMost wait: Duration) -> [Message] {
        let now = inbox.takeAll()
        if !now.isEmpty || isStopRequested { return now }
        _ = signal.wait(timeout: DispatchTime.now() + wait.dispatchInterval)
        return inbox.takeAll()
    }

    /// Waits `duration`, or less if a stop is requested meanwhile (posts do not end the
    /// pause); false once stopping. A blocking wait, not a polling loop.
    @discardableResult
    public func pause(_ duration: Duration) -> Bool {
        let until = MonotonicInstant.now() + duration
        while !isStopRequested {
            let left = until - MonotonicInstant.now()
            if left <= .zero { return true }
            _ = signal.wait(timeout: DispatchTime.now() + left.dispatchInterval)
        }
        return false
    }

    /// Runs `body` with `stop` registered as the way to interrupt it (shutting the socket
    /// it blocks on, say); a stop requested before it started runs `stop` at once.
    public func interruptible<T>(_ stop: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        onStop(stop)
        defer { onStop(nil) }
        return try body()
    }

    /// Sets (or clears) the way a stop interrupts the thread's blocking call, for calls
    /// that outlive a scope (a connection a driver keeps); runs it at once if a stop was
    /// requested already.
    public func onStop(_ stop: (@Sendable () -> Void)?) {
        interrupt.withLock { $0 = stop }
        if let stop, isStopRequested { stop() }
    }
}

extension Duration {
    /// The duration as a Dispatch interval (whole nanoseconds, at most an hour, never
    /// negative: a longer wait is woken by its thread's stop anyway).
    public var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let clamped = min(seconds, 3600)
        return .nanoseconds(Int(clamped) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}

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

/// A self-pipe: other threads write a byte to wake a loop out of `poll`/`epoll_wait`
/// (the feed loop, the live-source runner).
/// Owns both descriptors (closed in deinit); `wake` is safe from any thread.
public final class WakePipe: Sendable {
    /// The end to watch for readability.
    public let readFD: Int32
    private let writeFD: Int32

    /// Why the pipe could not be made.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the loop (a full pipe already will: the byte is then not needed).
    public func wake() {
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
    }

    /// Empties the pipe (the loop's thread).
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
