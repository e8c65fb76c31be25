import Foundation
import Synchronization

/// A long-running process's life, the same for eventd, eventd-web and `eventctl watch`:
/// services start in order, SIGHUP asks for a reload, SIGTERM or SIGINT (or a service
/// that ended on its own) asks to stop, and the services stop in reverse order, each
/// within its own deadline, all within `shutdownDeadline`. A second SIGTERM or SIGINT
/// while they stop ends the wait at once (`Outcome.interrupted`).
///
/// With `takingSignals`, the signals are blocked in the thread that creates the
/// lifecycle, and so in every thread started after it (threads inherit the mask):
/// create it first in `main`. One thread of its own takes them with `sigwait`, so no
/// signal handler ever runs and no thread is interrupted mid-write.
public final class Lifecycle: Sendable {
    /// How stopping the services ended.
    public enum Outcome: Sendable, Equatable {
        /// Every service ended within its deadline.
        case stopped
        /// These services had not ended by their own deadline or the overall one (the
        /// process should exit non-zero, naming them).
        case overdue([String])
        /// A second SIGTERM or SIGINT came while the services were stopping.
        case interrupted(signal: Int32)
    }

    private enum Request: Sendable {
        case signal(Int32)
        case stop(reason: String)
        /// The stopping thread of round `n` is done.
        case servicesStopped(Int)
    }

    /// The longest the whole stop may take.
    public let shutdownDeadline: Duration
    private let requests = Mailbox<Request>()
    private let services = Mutex<[any Service]>([])
    /// Each `stopServices` call's number, so a late end of an earlier one (which
    /// returned at its deadline) is not taken for the current one's.
    private let rounds = Atomic<Int>(0)

    /// `takingSignals`: block SIGTERM, SIGINT and SIGHUP in the calling thread and start
    /// the thread that takes them (tests pass false and call `signalled`).
    public init(shutdownDeadline: Duration = .seconds(10), takingSignals: Bool = true) {
        self.shutdownDeadline = shutdownDeadline
        guard takingSignals else { return }
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waited = set
        _ = ServiceThread<Never>(name: "signals", stackSize: 64 << 10) { [self] _ in
            var set = waited
            while true {
                var taken: Int32 = 0
                guard sigwait(&set, &taken) == 0 else { continue }
                signalled(taken)
            }
        }
    }

    static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// Starts `service` and notes it; if it cannot start, stops the services started
    /// before it (in reverse order) and throws why.
    public func start(_ service: any Service) throws {
        do {
            try service.start()
        } catch {
            _ = stopServices()
            throw error
        }
        services.withLock { $0.append(service) }
    }

    /// Notes a service that runs already (started elsewhere, or on demand).
    public func started(_ service: any Service) {
        services.withLock { $0.append(service) }
    }

    /// Notes a service that runs already and whose `stop` blocks until it has ended.
    public func started(_ name: String, stopDeadline: Duration = .seconds(5), stop: @escaping @Sendable () -> Void) {
        services.withLock { $0.append(BlockingStopService(name: name, stopDeadline: stopDeadline, stop: stop)) }
    }

    /// Asks the process to stop (a service that ended on its own, a fatal error).
    public func requestStop(_ reason: String) { requests.post(.stop(reason: reason)) }

    /// A signal arrived (the signal thread; tests call it directly).
    public func signalled(_ signal: Int32) { requests.post(.signal(signal)) }

    /// Waits for requests, calling `reload` for each SIGHUP, until one asks to stop;
    /// returns why (`SIGTERM`, `SIGINT`, or the reason given to `requestStop`).
    public func waitForStop(reload: () -> Void = {}) -> String {
        while true {
            for request in requests.take(waitingAtMost: .seconds(3600)) {
                switch request {
                case .signal(SIGHUP): reload()
                case .signal(let signal): return Self.name(of: signal)
                case .stop(let reason): return reason
                case .servicesStopped: continue
                }
            }
        }
    }

    /// Stops the started services, the last started first, each within its own
    /// deadline and all within `shutdownDeadline`; returns early on a second SIGTERM or
    /// SIGINT. `warn` hears of each service that missed its own deadline.
    public func stopServices(warn: @escaping @Sendable (String) -> Void = { _ in }) -> Outcome {
        let all = services.withLock { s in defer { s.removeAll() }; return s }
        let deadline = MonotonicInstant.now() + shutdownDeadline
        // Names not ended yet, in stopping order, and those that missed their deadline.
        let left = Mutex((waiting: all.reversed().map(\.name), late: [String]()))
        let requests = self.requests
        let round = rounds.add(1, ordering: .sequentiallyConsistent).newValue
        _ = ServiceThread<Never>(name: "stopping") { _ in
            for service in all.reversed() {
                service.requestStop()
                let budget = min(service.stopDeadline, max(.zero, deadline - MonotonicInstant.now()))
                let ended = service.join(deadline: budget)
                if !ended { warn("\(service.name) did not stop within \(budget)") }
                left.withLock { left in
                    left.waiting.removeFirst()
                    if !ended { left.late.append(service.name) }
                }
            }
            requests.post(.servicesStopped(round))
        }
        while true {
            let remaining = deadline - MonotonicInstant.now()
            if remaining <= .zero {
                return .overdue(left.withLock { $0.late + $0.waiting })
            }
            for request in requests.take(waitingAtMost: remaining) {
                switch request {
                case .servicesStopped(round):
                    let late = left.withLock { $0.late }
                    return late.isEmpty ? .stopped : .overdue(late)
                case .signal(SIGHUP), .stop, .servicesStopped: continue
                case .signal(let signal): return .interrupted(signal: signal)
                }
            }
        }
    }

    /// Ends the process at once as `signal` would have (a second SIGTERM or SIGINT):
    /// its default action, unblocked on this thread.
    public static func die(of signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        _exit(128 + signal)
    }

    /// `SIGTERM`, `SIGINT`, `SIGHUP`.
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
