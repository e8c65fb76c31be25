import Foundation
import Synchronization

/// A long-running process's life, the same for eventd, eventd-web and eventd's relay:
/// services start in order, SIGHUP asks for a reload, SIGTERM or SIGINT (or a service
/// that ended on its own) asks to stop, and the services stop in reverse order, each
/// draining within its own deadline, before the process exits 0.
///
/// The signals are blocked in the thread that creates the lifecycle, and so in every
/// thread started after it (threads inherit the mask): create it first in `main`.
/// One thread of its own takes them with `sigwait`, so no signal handler ever runs and
/// no thread is interrupted mid-write.
public final class Lifecycle: Sendable {
    /// What the process is asked to do.
    public enum Request: Sendable, Equatable {
        /// SIGHUP: reopen files, read again what can be read again.
        case reload
        /// Stop: `reason` names the signal (`SIGTERM`) or the service that ended.
        case stop(reason: String)
    }

    private struct Service {
        var name: String
        var stop: @Sendable () -> Void
    }

    private let requests = Mailbox<Request>()
    private let services = Mutex<[Service]>([])

    /// Blocks `SIGTERM`, `SIGINT` and `SIGHUP` in the calling thread and starts the
    /// thread that takes them.
    public init() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let requests = self.requests
        let waited = set
        let thread = Thread {
            var set = waited
            while true {
                var taken: Int32 = 0
                guard sigwait(&set, &taken) == 0 else { continue }
                requests.post(taken == SIGHUP ? .reload : .stop(reason: taken == SIGTERM ? "SIGTERM" : "SIGINT"))
            }
        }
        thread.name = "signals"
        thread.stackSize = 64 << 10
        thread.start()
    }

    static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// Notes a started service; `stop` is called (in reverse order of starting) by
    /// `stopServices`, and returns once the service has drained or its deadline passed.
    public func started(_ name: String, stop: @escaping @Sendable () -> Void) {
        services.withLock { $0.append(Service(name: name, stop: stop)) }
    }

    /// Asks the process to stop (a service that ended on its own, a fatal error).
    public func requestStop(_ reason: String) { requests.post(.stop(reason: reason)) }

    /// Waits for requests, calling `reload` for each SIGHUP, until one asks to stop;
    /// returns why.
    public func waitForStop(reload: () -> Void = {}) -> String {
        while true {
            for request in requests.take(waitingAtMost: .infinity) {
                switch request {
                case .reload: reload()
                case .stop(let reason): return reason
                }
            }
        }
    }

    /// Stops the started services, the last started first.
    public func stopServices() {
        let all = services.withLock { s in defer { s.removeAll() }; return s }
        for service in all.reversed() { service.stop() }
    }
}

/// A reading of `CLOCK_MONOTONIC`, the one clock every interval of the project is
/// measured on: it never steps and does not count suspended time (so a wall clock that
/// moved against it shows a step or a resume).
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Time since an arbitrary start (the boot).
    public var sinceStart: Duration

    public init(sinceStart: Duration) { self.sinceStart = sinceStart }

    /// The clock's reading now.
    public static func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(sinceStart: .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec))
    }

    /// Seconds since the start, for the state machines that count in seconds.
    public var seconds: Double { sinceStart.seconds }

    public static func < (a: Self, b: Self) -> Bool { a.sinceStart < b.sinceStart }
    public static func + (a: Self, d: Duration) -> Self { Self(sinceStart: a.sinceStart + d) }
    public static func - (a: Self, b: Self) -> Duration { a.sinceStart - b.sinceStart }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
