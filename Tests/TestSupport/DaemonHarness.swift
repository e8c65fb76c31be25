import Foundation
import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

/// Starts the real `eventd` on a temporary socket and database, imports with the real
/// `eventctl`, and always cleans up: the daemon gets SIGTERM, then SIGKILL, and the
/// temporary directory is removed, whether the test passed or not.
///
/// Typical use: `try await DaemonHarness.with { h in try await h.importCalendar(ics);
/// try await h.start(); let (client, state) = try await h.subscribe() ... }`.
// @unchecked: a harness belongs to one test body, which uses it from one task at a time;
// Sendable only lets that body hand it to the `with` closure and to child tasks it awaits.
public final class DaemonHarness: @unchecked Sendable {
    /// The clock every daemon starts at unless a test says otherwise: noon UTC, far
    /// from midnight, so that dates and labels are the same on every run.
    public static let defaultNow = "2026-11-29T12:00:00Z"
    /// A 7-day UTC window starting at `defaultNow`'s date.
    public static let weekView: JSONValue = ["tz": "UTC", "days": 7]

    /// The temporary directory holding the database, socket, log and written calendars.
    public let directory: String
    /// The database the daemon and eventctl use.
    public let dbPath: String
    /// The daemon's feed socket.
    public let socketPath: String
    /// The daemon's log file.
    public let logPath: String
    /// Arguments added to every start (after --db/--socket/--tz).
    public var arguments: [String]
    /// Environment added to every start.
    public var environment: [String: String]
    /// The running daemon's pid (nil when stopped).
    public internal(set) var pid: pid_t?
    /// How the last daemon ended.
    public internal(set) var lastExit: ProcessExit?
    /// Extra processes (a second daemon, systemd-socket-activate) to clean up.
    private var others: [pid_t] = []
    /// Whether `directory` is the harness's own (removed with it).
    private let ownsDirectory: Bool

    // MARK: - Binaries

    /// The built `eventd` (see `Products`).
    public static var eventd: String { Products.eventd }
    /// The built `eventctl` (see `Products`).
    public static var eventctl: String { Products.eventctl }

    // MARK: - Life cycle

    /// A harness with a fresh temporary directory (nothing started); prefer `with`.
    public convenience init(arguments: [String] = [], environment: [String: String] = [:]) throws {
        let directory = try makeTemporaryDirectory("dt")
        self.init(directory: directory, db: directory + "/events.db", socket: directory + "/feed.sock",
                  log: directory + "/eventd.log", arguments: arguments, environment: environment, ownsDirectory: true)
    }

    /// A harness on paths the caller chose, in a directory the caller owns (it is not
    /// removed): for tests that run several daemons, or a daemon on a database elsewhere.
    public convenience init(directory: String, db: String, socket: String, log: String,
                            arguments: [String] = [], environment: [String: String] = [:]) {
        self.init(directory: directory, db: db, socket: socket, log: log, arguments: arguments,
                  environment: environment, ownsDirectory: false)
    }

    private init(directory: String, db: String, socket: String, log: String, arguments: [String],
                 environment: [String: String], ownsDirectory: Bool) {
        self.directory = directory
        dbPath = db
        socketPath = socket
        logPath = log
        self.arguments = arguments
        self.environment = environment
        self.ownsDirectory = ownsDirectory
    }

    deinit {
        // Last resort; `with` normally cleaned up already.
        if let pid { ChildProcess.killAndReap(pid) }
        for other in others { ChildProcess.killAndReap(other) }
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Runs `body` with a fresh harness (daemon not started), then stops everything and
    /// removes the directory, also when `body` throws.
    public static func with(arguments: [String] = [], environment: [String: String] = [:],
                     _ body: (DaemonHarness) async throws -> Void) async throws {
        let harness = try DaemonHarness(arguments: arguments, environment: environment)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            print("eventd log (\(harness.directory)) after \(error):\n\(harness.log)")
            await harness.cleanUp()
            throw error
        }
        await harness.stop()
        if ProcessInfo.processInfo.environment["DAEMON_TESTS_VERBOSE"] != nil {
            print("eventd log (\(harness.directory)):\n\(harness.log)")
        }
        await harness.cleanUp()
    }

    /// `with`, after importing `events` (as `work.ics`, into the calendar `work`) and
    /// starting the daemon: the usual beginning of a test of the feed.
    public static func with(running events: [TestEvent], arguments: [String] = [], environment: [String: String] = [:],
                            _ body: (DaemonHarness) async throws -> Void) async throws {
        try await with(arguments: arguments, environment: environment) { daemon in
            try await daemon.importCalendar(icsCalendar(events))
            try await daemon.start()
            try await body(daemon)
        }
    }

    /// The environment a daemon starts with: `ChildProcess.isolatedEnvironment` (nothing
    /// systemd-ish or `EVENTD_*` from ours), the fake clock, then the test's additions.
    public func daemonEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ChildProcess.isolatedEnvironment(["EVENTD_FAKE_NOW": Self.defaultNow])
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        return env
    }

    /// The full command line of the daemon.
    public func daemonArguments(_ extra: [String] = []) -> [String] {
        ["--db", dbPath, "--socket", socketPath, "--tz", "UTC"] + arguments + extra
    }

    /// Starts the daemon and waits until it logs that it listens.
    public func start(_ extraArguments: [String] = [], environment extra: [String: String] = [:], timeout: Double = 10) async throws {
        let launch = try launch(extraArguments, environment: extra)
        let deadline = monotonicNow() + timeout
        while try !launch.isListening() {
            if monotonicNow() >= deadline { throw HarnessError("eventd did not listen within \(timeout) s; log:\n\(log)") }
            try await pause(0.01)
        }
    }

    /// A daemon being started: whether it listens yet.
    struct Launch {
        let harness: DaemonHarness
        let child: pid_t
        let listeningBefore: Int

        /// True once the log says it listens; throws when it exited first.
        func isListening() throws -> Bool {
            if harness.logLineCount(containing: "listening on") > listeningBefore { return true }
            if let exit = ChildProcess.poll(child) {
                harness.pid = nil
                harness.lastExit = exit
                throw HarnessError("eventd exited (\(exit)) before it listened; log:\n\(harness.log)")
            }
            return false
        }
    }

    /// Spawns the daemon (`start` and `startBlocking` then wait for it to listen).
    func launch(_ extraArguments: [String], environment extra: [String: String]) throws -> Launch {
        if pid != nil { throw HarnessError("the daemon is already running") }
        let before = logLineCount(containing: "listening on")
        let child = try ChildProcess.spawn(Self.eventd, daemonArguments(extraArguments),
                                           environment: daemonEnvironment(extra),
                                           stdoutPath: logPath, stderrPath: logPath)
        pid = child
        return Launch(harness: self, child: child, listeningBefore: before)
    }

    /// Starts another process to be cleaned up with the harness (returns its pid).
    public func spawnOther(_ executable: String, _ arguments: [String], environment: [String: String],
                    output: String) throws -> pid_t {
        let child = try ChildProcess.spawn(executable, arguments, environment: environment, stdoutPath: output, stderrPath: output)
        others.append(child)
        return child
    }

    /// Waits for another process started with `spawnOther`.
    public func waitOther(_ child: pid_t, timeout: Double) async throws -> ProcessExit? {
        let exit = try await ChildProcess.wait(child, timeout: timeout)
        if exit != nil { others.removeAll { $0 == child } }
        return exit
    }

    /// Starts a second eventd with this harness's command line and environment (the
    /// tests of what it refuses) and waits up to `timeout` for it to exit. Returns how it
    /// ended (nil: still running; it is stopped with the harness) and what it logged to
    /// `logName` in the directory.
    public func runSecondDaemon(logName: String, timeout: Double = 5) async throws -> (exit: ProcessExit?, log: String) {
        let output = directory + "/" + logName
        let child = try spawnOther(Self.eventd, daemonArguments(), environment: daemonEnvironment(), output: output)
        let exit = try await waitOther(child, timeout: timeout)
        return (exit, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    /// Sends `signal` to the daemon.
    public func signal(_ signal: Int32) {
        if let pid { kill(pid, signal) }
    }

    /// Waits for the daemon to exit on its own.
    public func waitForExit(timeout: Double) async throws -> ProcessExit? {
        guard let current = pid else { return lastExit }
        let exit = try await ChildProcess.wait(current, timeout: timeout)
        if let exit {
            pid = nil
            lastExit = exit
        }
        return exit
    }

    /// SIGTERM, and SIGKILL when it has not exited after `timeout`. Returns how it ended.
    @discardableResult
    public func stop(timeout: Double = 5) async -> ProcessExit? {
        guard let current = pid else { return lastExit }
        kill(current, SIGTERM)
        return stopped(current, exit: (try? await ChildProcess.wait(current, timeout: timeout)) ?? nil)
    }

    /// Records how the daemon `current` ended after SIGTERM: `exit`, or, when it has not
    /// exited (nil), SIGKILL. Returns `exit`.
    func stopped(_ current: pid_t, exit: ProcessExit?) -> ProcessExit? {
        if exit == nil { ChildProcess.killAndReap(current) }
        lastExit = exit ?? .signaled(SIGKILL)
        pid = nil
        return exit
    }

    /// SIGKILL now (a crash).
    public func crash() {
        guard let current = pid else { return }
        ChildProcess.killAndReap(current)
        lastExit = .signaled(SIGKILL)
        pid = nil
    }

    /// Stops the daemon and the other processes, and removes the directory.
    public func cleanUp() async {
        await stop()
        for other in others {
            kill(other, SIGTERM)
            let exited: ProcessExit?? = try? await ChildProcess.wait(other, timeout: 3)
            if exited == nil || exited! == nil { ChildProcess.killAndReap(other) }
        }
        others = []
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    // MARK: - The log

    /// The daemon's log (standard output and error) so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// How many log lines contain `text`.
    public func logLineCount(containing text: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// Waits until the log has at least `count` lines containing `text`.
    public func waitForLog(_ text: String, count: Int = 1, timeout: Double = 5) async throws -> Bool {
        try await eventually(timeout: timeout) { logLineCount(containing: text) >= count }
    }

    /// The daemon's resident set size, KiB.
    public func residentKiB() -> Int? { pid.flatMap(processResidentKiB) }
}
