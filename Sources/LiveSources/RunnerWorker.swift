import EventStore
import Foundation
import Glibc
import Threads

/// The runner thread's state and loop (see `SourceRunner`): created inside the thread,
/// so the database connection, the watches and the schedule never leave it.
struct RunnerWorker {
    let configuration: SourceRunner.Configuration
    var syncer: SourceSyncer
    let watcher: DirectoryWatcher
    let pool: FetchPool
    let inbox: RunnerInbox<SourceRunner.Message>
    let log: @Sendable (Bool, String) -> Void
    let report: @Sendable (SourceRunner.Report) -> Void
    var schedule: SourceScheduler
    var sources: [String: LiveSource] = [:]
    /// `source sync` requests: tokens waiting for a source's next attempt to start, and
    /// for a started attempt to end.
    var awaitingStart: [String: [Int]] = [:]
    var awaitingEnd: [String: [Int]] = [:]
    var answers: [Int: (waiting: Set<String>, reports: [SyncReport])] = [:]
    var running = true
    /// A source's status changed since the feed was last told (told once per wake-up,
    /// not once per attempt: 200 polls answered together make one report).
    var statusChanged = false

    init(configuration: SourceRunner.Configuration, watcher: DirectoryWatcher, pool: FetchPool,
         inbox: RunnerInbox<SourceRunner.Message>, log: @escaping @Sendable (Bool, String) -> Void,
         report: @escaping @Sendable (SourceRunner.Report) -> Void) {
        self.configuration = configuration
        syncer = SourceSyncer(path: configuration.databasePath, gate: configuration.gate)
        self.watcher = watcher
        self.pool = pool
        self.inbox = inbox
        self.log = log
        self.report = report
        schedule = SourceScheduler(maxRunning: configuration.concurrentFetches, jitter: configuration.jitter)
    }

    /// Runs until `.stop`; `early` are the messages that came before the start.
    mutating func run(handlingFirst early: [SourceRunner.Message] = []) {
        reload()
        for message in early { handle(message) }
        while running {
            let now = configuration.monotonic()
            let wait = schedule.nextDue.map { max(.zero, min($0 - now, .seconds(60))) } ?? .seconds(60)
            var fds = [pollfd(fd: inbox.readFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: watcher.fd, events: Int16(POLLIN), revents: 0)]
            _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, wait.pollMilliseconds) }
            for message in inbox.takeAll() { handle(message) }
            if fds[1].revents != 0 { filesChanged() }
            startDue()
            if statusChanged {
                statusChanged = false
                publish()
            }
            // No connection held while waiting (`SourceSyncer.init(path:)` says why).
            syncer.closeStore()
        }
    }

    // MARK: - Messages

    mutating func handle(_ message: SourceRunner.Message) {
        switch message {
        case .reload: reload()
        case .reopen: reopen()
        case .sync(let names, let token): sync(names, token: token)
        case .fetched(let name, let result): fetched(name, result)
        case .stop: running = false
        }
    }

    /// Reads the source table; new sources are due now (or when their stored next
    /// attempt says), removed ones are forgotten.
    mutating func reload() {
        let stored: [LiveSource]
        do { stored = try syncer.store.liveSources() } catch {
            log(true, "cannot read the live sources: \(error)")
            return
        }
        let now = configuration.monotonic(), wall = configuration.wall().unixSeconds
        let names = Set(stored.map(\.name))
        for name in sources.keys where !names.contains(name) {
            schedule.remove(name)
            watcher.forget(name)
            syncer.forget(name)
            sources[name] = nil
            resolve(name, with: nil)
        }
        for source in stored where sources[source.name] == nil || sources[source.name]!.location != source.location {
            sources[source.name] = source
            let every = source.kind == .url ? Duration.seconds(source.everySeconds) : Self.rescanInterval
            let due = source.state.nextAttempt.map { now + .seconds(max(0, $0 - wall)) } ?? now
            schedule.add(source.name, every: every, ttl: source.state.ttlSeconds.map { .seconds($0) },
                         failures: source.state.failures, due: source.kind == .url ? due : now)
            watch(source)
        }
        statusChanged = true
    }

    /// SIGHUP: the database may be another file now. The connection is closed (it is
    /// opened again for the next work); the files' stamps are forgotten, so every vdir is
    /// read again against the file now at the path.
    mutating func reopen() {
        syncer.closeStore()
        syncer = SourceSyncer(path: configuration.databasePath, gate: configuration.gate)
        let known = Array(sources.keys)
        sources = [:]
        for name in known { schedule.remove(name); watcher.forget(name) }
        reload()
    }

    /// Watched sources are rescanned this often even without an event (a missed event,
    /// a directory re-created on another file system).
    static let rescanInterval: Duration = .seconds(3600)

    func watch(_ source: LiveSource) {
        switch source.kind {
        case .url: break
        case .vdir: watcher.watch(source.location, for: source.name)
        case .file:
            let directory = (source.location as NSString).deletingLastPathComponent
            watcher.watch(directory.isEmpty ? "/" : directory, for: source.name,
                          file: (source.location as NSString).lastPathComponent)
        }
    }

    mutating func filesChanged() {
        let (changed, overflow) = watcher.drain()
        let names = overflow ? sources.values.filter { $0.kind != .url }.map(\.name) : Array(changed)
        if overflow { log(true, "inotify queue overflowed: rescanning every watched source") }
        schedule.due(names, at: configuration.monotonic() + configuration.settle)
    }

    mutating func sync(_ requested: [String], token: Int) {
        // `source add` asks for its new source by name: look at the table first.
        reload()
        let names = requested.isEmpty ? sources.keys.sorted() : requested
        var unknown: [SyncReport] = []
        var waiting = Set<String>()
        for name in names {
            guard sources[name] != nil else {
                let ghost = LiveSource(name: name, kind: .url, location: "", calendar: name, everySeconds: 0)
                unknown.append(SyncReport(name: name, failure: FetchFailure(.missing, "no source named \"\(name)\""),
                                          changedEvents: false, summary: "no source named \"\(name)\"", ttl: nil, source: ghost))
                continue
            }
            waiting.insert(name)
            awaitingStart[name, default: []].append(token)
        }
        answers[token] = (waiting, unknown)
        schedule.due(Array(waiting), at: configuration.monotonic())
        if waiting.isEmpty { answer(token) }
    }
}

/// The source runner's inbox: any thread posts; the runner thread, which waits in
/// `poll` on inotify too, is woken through a pipe. Bounded by its users: one message
/// per request, per finished fetch, per stop.
final class RunnerInbox<Message: Sendable>: Sendable {
    private let pipe: WakePipe
    private let mailbox: Mailbox<Message>

    /// The end the runner polls.
    var readFD: Int32 { pipe.readFD }

    init() throws(FetchFailure) {
        do {
            pipe = try WakePipe()
        } catch {
            throw FetchFailure(.unreadable, "\(error)")
        }
        mailbox = Mailbox(wake: { [pipe] in pipe.wake() })
    }

    func post(_ message: Message) { mailbox.post(message) }

    /// Everything posted so far, oldest first; empties the pipe.
    func takeAll() -> [Message] {
        pipe.drain()
        return mailbox.takeAll()
    }
}

/// What `stat` says of a file that tells whether it may have changed: size,
/// modification time and inode. A file whose stamp is unchanged is not read again.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var inode: UInt64
    var isRegular: Bool
    var isDirectory: Bool

    /// The stamp of `path` now, or nil when there is no file there.
    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        size = Int64(st.st_size)
        modifiedNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        inode = UInt64(st.st_ino)
        isRegular = (st.st_mode & S_IFMT) == S_IFREG
        isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
    }
}
