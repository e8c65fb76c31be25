import Foundation
import Agenda
import Dispatch
import LiveSources
import Synchronization
import Diagnostics
import RuntimeDirectories
import Threads

/// The daemon's services, started in order (recompute thread, source runner, feed loop
/// thread) under the process's `Lifecycle`, which stops them in reverse order, each
/// within its deadline: the loop stops accepting and flushes its subscribers (at most
/// 2 s), then the sources, then the recompute thread. One that cannot start stops those
/// started before it. SIGHUP (`reload`) reopens the database.
public final class Daemon: Sendable {
    let config: DaemonConfiguration
    let log: Logger
    let environment: [String: String]
    let clocks: DaemonClocks
    private let mailbox = Mutex<Mailbox<LoopMessage>?>(nil)
    private let loopFailure = FailureRecord()

    /// `clocks` defaults to the system's (tests inject their own).
    public init(config: DaemonConfiguration, environment: [String: String], clocks: DaemonClocks? = nil) {
        self.config = config
        self.environment = environment
        self.log = Logger(level: config.logLevel)
        self.clocks = clocks ?? .system(environment: environment)
    }

    /// Why the feed loop could not run, once the services stopped.
    public var failure: (any Error)? { loopFailure.error }

    /// Reopens the database and the sources (SIGHUP).
    public func reload() { mailbox.withLock { $0 }?.post(.reopen) }

    /// Starts the services and notes each in `lifecycle`; throws when it cannot start.
    /// The feed loop asks `lifecycle` to stop if it ends on its own (it could not run).
    public func start(in lifecycle: Lifecycle) throws {
        ReleasedMemory.mapLargeBlocksAlways()
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
        let mailbox: Mailbox<LoopMessage>
        let sources: SourceRunner
        let recomputer: Recomputer
        do {
            wakePipe = try WakePipe()
            mailbox = Mailbox<LoopMessage>(wake: { [wakePipe] in wakePipe.wake() })
            recomputer = Recomputer(config: config, log: log, clocks: clocks, epoch: epoch) { mailbox.post(.recomputed($0)) }
            try lifecycle.start(recomputer)
            sources = try makeSources(mailbox: mailbox)
            try lifecycle.start(sources)
        } catch {
            // Whatever failed, the services started so far (the recompute thread) stop
            // and are joined (`lifecycle.start` did so already when a start threw).
            _ = lifecycle.stopServices()
            close(listenFD)
            if let socketPathToRemove { unlink(socketPathToRemove) }
            throw error
        }
        self.mailbox.withLock { $0 = mailbox }
        log.notice("eventd \(ProductVersion.number) listening on \(systemdFD == nil ? config.socketPath : "a socket from systemd"), database \(config.databasePath), epoch \(epoch)")

        let (config, log, clocks, environment, loopFailure) = (self.config, self.log, self.clocks, self.environment, self.loopFailure)
        // The loop ends only after a shutdown, unless it could not start at all.
        try lifecycle.start(FeedLoopService(mailbox: mailbox) {
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
                lifecycle.requestStop("the feed loop failed")
            }
        })
    }

    /// The live-source runner (its threads), reporting to the loop's mailbox.
    private func makeSources(mailbox: Mailbox<LoopMessage>) throws -> SourceRunner {
        let clocks = self.clocks
        var configuration = SourceRunner.Configuration(databasePath: config.databasePath,
                                                       monotonic: clocks.monotonic,
                                                       wall: clocks.wall)
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
}

/// Why a thread could not run, for the thread that waits for it.
private final class FailureRecord: Sendable {
    private let recorded = Mutex<(any Error)?>(nil)
    func record(_ error: any Error) { recorded.withLock { $0 = error } }
    var error: (any Error)? { recorded.withLock { $0 } }
}
