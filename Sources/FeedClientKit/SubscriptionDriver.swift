import Glibc
import FeedProtocol
import Threads

/// Runs a `SubscriptionMachine` over the feed socket, blocking on one thread: it
/// connects, reads lines and keeps time, and hands the machine's effects for the
/// consumer to its `Consumer`. The machine decides; this only does the I/O.
public struct SubscriptionDriver {
    /// What a subscription's effects go to, and the consumer's own clock.
    public protocol Consumer {
        /// One effect meant for the consumer (all but connect, send, close and
        /// scheduling, which the driver carries out). Errors thrown end the run.
        mutating func handle(_ effect: SubscriptionMachine.Effect) throws
        /// Seconds until the consumer wants `wake` (a minute's turn, a reminder);
        /// nil: never. Asked after every event.
        func secondsUntilWake() -> Double?
        /// The time `secondsUntilWake` named has come.
        mutating func wake() throws
    }

    /// The subscription the driver runs.
    public var configuration: SubscriptionMachine.Configuration
    /// Opens a connection: throws `FeedSocket.Unavailable` when nothing listens (the
    /// machine retries); any other error ends the run (a socket not to be trusted).
    public var open: () throws -> FeedSocket
    /// The monotonic clock.
    public var clock: () -> MonotonicInstant
    /// Waits this long while there is no connection (before a reconnection): a thread
    /// that can be stopped passes a wait that its stop ends early.
    public var sleep: (Duration) -> Void

    /// A driver for `configuration`, connecting with `open` and timing with `clock`.
    public init(_ configuration: SubscriptionMachine.Configuration, open: @escaping () throws -> FeedSocket,
                clock: @escaping () -> MonotonicInstant = MonotonicInstant.now,
                sleep: @escaping (Duration) -> Void = SubscriptionDriver.sleep) {
        self.configuration = configuration
        self.open = open
        self.clock = clock
        self.sleep = sleep
    }

    /// Waits `wait` (signals do not cut it short).
    public static func sleep(_ wait: Duration) {
        let (seconds, attoseconds) = max(.zero, wait).components
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&ts, &rest) != 0 && errno == EINTR { ts = rest }
    }

    /// Subscribes and follows until the machine gives up: returns why (the daemon's
    /// `error`, or a first connection that failed when so configured).
    public func run<C: Consumer>(_ consumer: inout C) throws -> SubscriptionMachine.Failure {
        var machine = SubscriptionMachine(configuration)
        var socket: FeedSocket?
        var pending = machine.handle(.start, now: clock())
        while true {
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                switch effect {
                case .connect:
                    do {
                        socket = try open()
                        pending += machine.handle(.connected, now: clock())
                    } catch let e as FeedSocket.Unavailable {
                        pending += machine.handle(.connectFailed(e.description), now: clock())
                    }
                case .send(let request):
                    do { try socket?.send(request) } catch {
                        socket = nil
                        pending += machine.handle(.disconnected("\(error)"), now: clock())
                    }
                case .close:
                    socket = nil
                case .scheduleReconnect:
                    break
                case .failed(let failure):
                    try consumer.handle(effect)
                    return failure
                default:
                    try consumer.handle(effect)
                }
            }
            pending = try wait(&machine, socket: &socket, consumer: &consumer)
        }
    }

    /// Waits for a line, the machine's deadline or the consumer's wake-up, whichever is
    /// first; returns the machine's effects.
    private func wait<C: Consumer>(_ machine: inout SubscriptionMachine, socket: inout FeedSocket?,
                                   consumer: inout C) throws -> [SubscriptionMachine.Effect] {
        var timeout: Duration = .seconds(86_400)
        if let deadline = machine.deadline { timeout = min(timeout, deadline - clock()) }
        if let wake = consumer.secondsUntilWake() { timeout = min(timeout, .seconds(wake)) }
        timeout = max(.zero, timeout)
        var effects: [SubscriptionMachine.Effect] = []
        if let connected = socket {
            // Lines may keep the socket busy: the clocks are checked after every wake-up.
            if connected.waitForInput(timeout: timeout) {
                do {
                    if let line = try connected.readLine() {
                        effects += machine.handle(.line(line), now: clock())
                    } else {
                        socket = nil
                        effects += machine.handle(.disconnected("the daemon closed the connection"), now: clock())
                    }
                } catch {
                    socket = nil
                    effects += machine.handle(.disconnected("\(error)"), now: clock())
                }
            }
        } else if timeout > .zero {
            sleep(timeout)
        }
        if let wake = consumer.secondsUntilWake(), wake <= 0 { try consumer.wake() }
        if let deadline = machine.deadline, clock() >= deadline { effects += machine.handle(.timer, now: clock()) }
        return effects
    }
}
