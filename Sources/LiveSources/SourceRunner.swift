import EventStore
import Foundation
import Glibc
import Synchronization
import Threads

/// The daemon's live sources: one thread (`eventd-sources`) that owns the schedule, a
/// database connection of its own, the inotify watches and the file reads, plus a pool
/// of fetch threads for URLs. The feed loop only posts requests here and receives
/// `SourceRunner.Report`s; it never waits on the network or on files.
public final class SourceRunner: Service {
    /// What the runner tells the feed.
    public enum Report: Sendable {
        /// Events changed: recompute (the path `eventctl import`'s refresh takes).
        case refresh
        /// Every source's current status (after each attempt, and on reload).
        case statuses([SourceStatus])
        /// The answer to `sync(names:token:)`: one report per source, in name order.
        case synced(token: Int, [SyncReport])
    }

    enum Message: Sendable {
        case reload
        case reopen
        case sync(names: [String], token: Int)
        case fetched(String, Result<FetchResult, FetchFailure>)
        case stop
    }

    /// What the runner is started with.
    public struct Configuration: Sendable {
        /// The database the runner opens its own connection to.
        public var databasePath: String
        /// When the runner may open it (the daemon's main connection decides; nil: always).
        public var gate: DatabaseGate?
        /// The bounds of each fetch.
        public var limits = HTTPLimits()
        /// Fetch threads (at most this many fetches at once).
        public var concurrentFetches = LiveSourceDefaults.concurrentFetches
        /// The monotonic clock (schedules).
        public var monotonic: @Sendable () -> MonotonicInstant
        /// The wall clock (the dates kept in the database).
        public var wall: @Sendable () -> WallInstant
        /// Jitter source for the schedule (tests pass `{ 0 }`).
        public var jitter: @Sendable () -> Double = { Double.random(in: -1...1) }
        /// Delay after a file change before the rescan, so that a burst of writes (an
        /// editor's save, vdirsyncer's run) is read once.
        public var settle: Duration = .milliseconds(50)

        /// A configuration with the system's clocks.
        public init(databasePath: String, monotonic: @escaping @Sendable () -> MonotonicInstant = MonotonicInstant.now,
                    wall: @escaping @Sendable () -> WallInstant) {
            self.databasePath = databasePath
            self.monotonic = monotonic
            self.wall = wall
        }
    }

    let inbox: RunnerInbox<Message>
    private let configuration: Configuration
    private let thread: ServiceThread<Never>
    private let stopping = StopFlag()

    public let name = "sources"
    /// A running transfer is cut within about a second (libcurl's progress callback);
    /// the fetch threads get 3 s of it.
    public let stopDeadline: Duration = .seconds(5)

    /// Starts the runner thread, which opens the database and starts following the
    /// sources at the first message (`reload`, `sync`). `report` and `log` are called on
    /// the runner's threads.
    public init(_ configuration: Configuration, log: @escaping @Sendable (_ warning: Bool, _ message: String) -> Void,
                report: @escaping @Sendable (Report) -> Void) throws {
        self.configuration = configuration
        inbox = try RunnerInbox()
        let (inbox, stopping) = (self.inbox, self.stopping)
        let pool = FetchPool(count: configuration.concurrentFetches, limits: configuration.limits,
                             shouldStop: { stopping.isSet },
                             deliver: { name, result in inbox.post(.fetched(name, result)) })
        // As the import's parser threads: libical recurses on nested components.
        thread = ServiceThread(name: "eventd-sources", stackSize: 8 << 20, wake: { inbox.post(.stop) }) { _ in
            // The connection and the watches are made here, off the caller's thread (the
            // daemon's start is not delayed), and never leave this thread.
            // Nothing is opened before the first message (the daemon sends `reload` once it
            // is ready): a stop before that ends the thread at once.
            let early = Self.firstMessages(inbox)
            if early.contains(where: { if case .stop = $0 { return true }; return false }) { return }
            do {
                // The database must open now (the worker opens its connections per wake-up).
                _ = try EventStore(path: configuration.databasePath, options: .daemon)
                var worker = RunnerWorker(configuration: configuration, watcher: try DirectoryWatcher(),
                                          pool: pool, inbox: inbox, log: log, report: report)
                worker.run(handlingFirst: early)
            } catch {
                log(true, "live sources unavailable: \(error)")
                Self.refuseAll(inbox: inbox, reason: "live sources unavailable: \(error)", report: report)
            }
            pool.stop(within: .seconds(3))
        }
    }

    /// Nothing to do: the thread waits for the first message (the daemon's `reload`).
    public func start() {}

    /// Waits for the first messages (the runner starts its work on the first one).
    private static func firstMessages(_ inbox: RunnerInbox<Message>) -> [Message] {
        while true {
            var descriptor = pollfd(fd: inbox.readFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 60_000)
            let messages = inbox.takeAll()
            if !messages.isEmpty { return messages }
        }
    }

    /// Without a database or inotify, answers every `sync` with the reason, until stopped.
    private static func refuseAll(inbox: RunnerInbox<Message>, reason: String, report: @Sendable (Report) -> Void) {
        while true {
            var descriptor = pollfd(fd: inbox.readFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 60_000)
            for message in inbox.takeAll() {
                switch message {
                case .stop: return
                case .sync(let names, let token):
                    report(.synced(token: token, names.map { name in
                        SyncReport(name: name, failure: FetchFailure(.unreadable, reason), changedEvents: false, summary: reason,
                                   ttl: nil, source: LiveSource(name: name, kind: .url, location: "", calendar: name, everySeconds: 0))
                    }))
                case .reload, .reopen, .fetched: continue
                }
            }
        }
    }

    /// Opens the database again (SIGHUP: the file may have been replaced), then reads
    /// the source table.
    public func reopen() { inbox.post(.reopen) }

    /// Reads the source table again (a source was added or removed).
    public func reload() { inbox.post(.reload) }

    /// Synchronises the named sources now (all when empty), backoff or not; the
    /// outcome comes back as `.synced(token:…)`.
    public func sync(names: [String], token: Int) { inbox.post(.sync(names: names, token: token)) }

    /// Asks the runner and its fetches to stop (returns at once).
    public func requestStop() {
        stopping.set()
        thread.requestStop()
    }

    /// Waits at most `deadline` for the runner thread (which waits for its fetch threads).
    public func join(deadline: Duration) -> Bool { thread.join(deadline: deadline) }

    /// Stops the runner and its fetches, and waits (at most `stopDeadline`).
    public func stop() {
        requestStop()
        _ = join(deadline: stopDeadline)
    }
}

/// A flag one thread sets and others read.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
