import Foundation
import Agenda
import Dispatch

/// The daemon's lifecycle: services started in order (recomputer, then the feed loop),
/// signals read through `DispatchSource`s into an `AsyncStream`, and shutdown in
/// reverse order. SIGTERM/SIGINT stop it cleanly; SIGHUP reopens the database.
public final class Daemon: Sendable {
    let config: DaemonConfiguration
    let log: Logger
    let environment: [String: String]

    public init(config: DaemonConfiguration, environment: [String: String]) {
        self.config = config
        self.environment = environment
        self.log = Logger(level: config.logLevel)
    }

    /// Runs until SIGTERM/SIGINT. Throws when it cannot start.
    public func run() async throws {
        let clock = AgendaClock(environment: environment)
        let epoch = Self.makeEpoch()
        let systemdFD = ListeningSocket.fromSystemd(environment: environment)
        let listenFD: Int32
        do {
            listenFD = try systemdFD ?? ListeningSocket.create(path: config.socketPath, mode: config.socketMode)
        }
        let notifier = SystemdNotifier(environment: environment)
        let config = self.config
        let log = self.log
        let server = FeedServer(config: config, log: log, clock: clock, epoch: epoch, listenFD: listenFD,
                                ownsSocketFile: systemdFD == nil, notifier: notifier) { output in
            Recomputer(config: config, log: log, clock: clock, epoch: epoch, output: output)
        }
        do {
            try server.recomputer.start()
        } catch {
            close(listenFD)
            if systemdFD == nil { unlink(config.socketPath) }
            throw error
        }
        log.notice("eventd 0.1.0 listening on \(systemdFD == nil ? config.socketPath : "a socket from systemd"), database \(config.databasePath), epoch \(epoch)")

        let signals = Self.signalStream([SIGTERM, SIGINT, SIGHUP])
        let loopDone = AsyncStream<Void>.makeStream()
        let loopThread = Thread {
            server.run()
            loopDone.continuation.yield()
            loopDone.continuation.finish()
        }
        loopThread.name = "eventd-feed"
        loopThread.start()

        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals {
                    if signal == SIGHUP {
                        server.post(.reopen)
                    } else {
                        log.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), stopping")
                        server.post(.shutdown)
                        break
                    }
                }
            }
            group.addTask {
                for await _ in loopDone.stream {}
            }
            await group.next()
            server.post(.shutdown)
            await group.next()
            group.cancelAll()
        }
        // Reverse order: the loop has stopped (and flushed); now the recomputer.
        server.recomputer.stop()
        log.notice("stopped")
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
        nonisolated(unsafe) var sources: [DispatchSourceSignal] = []
        for s in signals {
            signal(s, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
            source.setEventHandler { continuation.yield(s) }
            source.resume()
            sources.append(source)
        }
        continuation.onTermination = { _ in queue.async { sources.forEach { $0.cancel() } } }
        return stream
    }
}
