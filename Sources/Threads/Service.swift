import Dispatch
import Synchronization

/// A long-running part of a process, run by `Lifecycle`: started in order, stopped in
/// reverse order, each within its own deadline. `requestStop` returns at once; `join`
/// waits at most the time it is given, so a stuck service cannot hold the process.
public protocol Service: AnyObject, Sendable {
    /// Who it is, in log lines ("recompute", "sources", "feed loop").
    var name: String { get }
    /// How long it may take to drain and end once asked to stop.
    var stopDeadline: Duration { get }
    /// Starts it; throws when it cannot run (the lifecycle then stops the services
    /// already started).
    func start() throws
    /// Asks it to stop and drain (any thread; returns at once).
    func requestStop()
    /// Waits at most `deadline` for it to end; whether it did.
    func join(deadline: Duration) -> Bool
}

extension Service {
    public var stopDeadline: Duration { .seconds(2) }
}

/// A service whose stop is one blocking call made elsewhere (eventd's relay, whose
/// `stop` stops its own threads): the call runs on a thread of its own, so the lifecycle
/// waits for it no longer than the deadline.
public final class BlockingStopService: Service {
    public let name: String
    public let stopDeadline: Duration
    private let stop: @Sendable () -> Void
    private let stopper = Mutex<ServiceThread<Never>?>(nil)

    /// A service already running; `stop` ends it and returns once it has.
    public init(name: String, stopDeadline: Duration = .seconds(5), stop: @escaping @Sendable () -> Void) {
        self.name = name
        self.stopDeadline = stopDeadline
        self.stop = stop
    }

    public func start() {}

    public func requestStop() {
        let stop = self.stop
        stopper.withLock { thread in
            if thread == nil { thread = ServiceThread(name: "stop \(name)") { _ in stop() } }
        }
    }

    public func join(deadline: Duration) -> Bool {
        stopper.withLock { $0 }?.join(deadline: deadline) ?? false
    }
}

/// A service whose work runs on a thread the process has already (the main thread:
/// eventd-web's gateway loop): `run` runs it there, its stop wakes that work, and
/// `join` waits for `run` to return.
public final class HostedService: Service {
    public let name: String
    public let stopDeadline: Duration
    private let wake: @Sendable () -> Void
    private let finished = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// `stop` asks the work to end (returns at once); the work then returns from `run`.
    public init(name: String, stopDeadline: Duration, stop: @escaping @Sendable () -> Void) {
        self.name = name
        self.stopDeadline = stopDeadline
        wake = stop
    }

    public func start() {}

    public func requestStop() { wake() }

    public func join(deadline: Duration) -> Bool {
        if finished.load(ordering: .sequentiallyConsistent) { return true }
        guard ended.wait(timeout: DispatchTime.now() + deadline.dispatchInterval) == .success else {
            return finished.load(ordering: .sequentiallyConsistent)
        }
        ended.signal()
        return true
    }

    /// Runs the service's work on the calling thread; it counts as ended once `body`
    /// returns or throws.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        defer {
            finished.store(true, ordering: .sequentiallyConsistent)
            ended.signal()
        }
        return try body()
    }
}
