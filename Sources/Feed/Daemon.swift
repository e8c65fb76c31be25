import Foundation
import Agenda
import Dispatch
import LiveSources
import Synchronization
import Diagnostics
import RuntimeDirectories
import Threads

/// The daemon's lifecycle: services started in order (recompute thread, then the feed
/// loop thread), signals read through `DispatchSource`s into an `AsyncStream`, and
/// shutdown in reverse order. SIGTERM/SIGINT stop it cleanly; SIGHUP reopens the database.
public final class Daemon: Sendable {
    let config: DaemonConfiguration
    let log: Logger
    let environment: [String: String]
    let clocks: DaemonClocks

    /// `clocks` defaults to the system's (tests inject their own).
    public init(config: DaemonConfiguration, environment: [String: String], clocks: DaemonClocks? = nil) {
        self.config = config
        self.environment = environment
        self.log = Logger(level: config.logLevel)
        self.clocks = clocks ?? .system(environment: environment)
    }

    /// Runs until SIGTERM/SIGINT. Throws when it cannot start.
    public func run() async throws {
        let epoch = Self.makeEpoch()
        // The database's directory first: made 0700 when missing, refused when someone
        // else could swap the database (the worker opens the file itself, later).
        _ = try CheckedDirectory.open(RuntimePaths.directory(of: config.databasePath),
                                      policy: config.databaseDirectoryPolicy, create: true)
        let systemdFD = ListeningSocket.fromSystemd(environment: environment)
        let listenFD = try systemdFD ?? ListeningSocket.create(path: config.socketPath, mode: config.socketMode,
                                                               directoryPolicy: config.socketDirectoryPolicy)
        let socketPathToRemove = systemdFD == nil ? config.socketPath : nil
        let wakePipe: WakePipe
        let recomputer = Recomputer()
        let mailbox: Mailbox<LoopMessage>
        let sources: SourceRunner
        do {
            wakePipe = try WakePipe()
            mailbox = Mailbox<LoopMessage>(wake: { wakePipe.wake() })
            try recomputer.start(config: config, log: log, clocks: clocks, epoch: epoch) { mailbox.post(.recomputed($0)) }
            sources = try startSources(mailbox: mailbox)
        } catch {
            close(listenFD)
            if let socketPathToRemove { unlink(socketPathToRemove) }
            throw error
        }
        log.notice("eventd \(ProductVersion.number) listening on \(systemdFD == nil ? config.socketPath : "a socket from systemd"), database \(config.databasePath), epoch \(epoch)")

        // The loop thread's end, as something a task can await.
        let loopEnded = AsyncStream<Void>.makeStream()
        let loopFailure = FailureRecord()
        let (config, log, clocks, environment) = (self.config, self.log, self.clocks, self.environment)
        let loopThread = Thread {
            let notifier = SystemdNotifier(environment: environment)
            let hub = FeedHub(config: config, epoch: epoch, watchdogInterval: notifier?.watchdogInterval,
                              followsSystemZone: config.timeZoneFollowsSystem, now: clocks.now())
            do {
                let loop = try FeedLoop(hub: hub, log: log, clocks: clocks, listenFD: listenFD,
                                        socketPathToRemove: socketPathToRemove, notifier: notifier, recomputer: recomputer,
                                        sources: sources, mailbox: mailbox, wakePipe: wakePipe, environment: environment)
                try loop.run()
            } catch {
                loopFailure.record(error)
                close(listenFD)
                if let socketPathToRemove { unlink(socketPathToRemove) }
            }
            loopEnded.continuation.finish()
        }
        loopThread.name = "eventd-feed"
        loopThread.start()

        let signals = Self.signalStream([SIGTERM, SIGINT, SIGHUP])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals {
                    if signal == SIGHUP {
                        mailbox.post(.reopen)
                    } else {
                        log.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), stopping")
                        break
                    }
                }
            }
            group.addTask { for await _ in loopEnded.stream {} }
            await group.next()
            mailbox.post(.shutdown)
            // The loop ends only after a shutdown, unless it could not start at all.
            if loopFailure.error == nil { await group.next() }
            group.cancelAll()
        }
        // Reverse order: the loop has stopped (and flushed); now the sources, then the
        // recompute thread.
        sources.stop()
        recomputer.stop()
        if let error = loopFailure.error { throw error }
        log.notice("stopped")
    }

    /// The live-source runner, on its own threads, reporting to the loop's mailbox.
    private func startSources(mailbox: Mailbox<LoopMessage>) throws -> SourceRunner {
        let clocks = self.clocks
        var configuration = SourceRunner.Configuration(databasePath: config.databasePath,
                                                       monotonic: { clocks.monotonic() },
                                                       wall: { Int64(clocks.wall().rounded(.down)) })
        configuration.gate = config.databaseGate
        // The system service's credentials (LoadCredential=netrc) stand in for ~/.netrc.
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            configuration.limits.netrcFile = directory + "/netrc"
        }
        let log = self.log
        return try SourceRunner(configuration, log: { warning, message in
            log.log(warning ? .warning : .info, message)
        }, report: { mailbox.post(.sources($0)) })
    }

    static func makeEpoch() -> String {
        var bytes = [UInt8](repeating: 0, count: 8)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Signals as an async stream (the default actions are disabled).
    static func signalStream(_ signals: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "eventd.signals")
        let sources = signals.map { s -> DispatchSourceSignal in
            signal(s, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
            source.setEventHandler { continuation.yield(s) }
            source.resume()
            return source
        }
        // The sources live as long as the stream; they are cancelled on its queue.
        let keep = SignalSources(sources)
        continuation.onTermination = { _ in queue.async { keep.cancel() } }
        return stream
    }
}

/// Why a thread could not run, for the thread that waits for it.
private final class FailureRecord: Sendable {
    private let recorded = Mutex<(any Error)?>(nil)
    func record(_ error: any Error) { recorded.withLock { $0 = error } }
    var error: (any Error)? { recorded.withLock { $0 } }
}

/// Holds the signal sources for the stream's lifetime.
/// `@unchecked Sendable`: the sources are only cancelled, on their own serial queue.
private final class SignalSources: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]
    init(_ sources: [DispatchSourceSignal]) { self.sources = sources }
    func cancel() { sources.forEach { $0.cancel() } }
}
