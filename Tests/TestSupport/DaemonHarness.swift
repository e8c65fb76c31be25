import Foundation
import Support
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
    public private(set) var pid: pid_t?
    /// How the last daemon ended.
    public private(set) var lastExit: ProcessExit?
    /// Extra processes (a second daemon, systemd-socket-activate) to clean up.
    private var others: [pid_t] = []

    // MARK: - Binaries

    /// The built `eventd` (see `Products`).
    public static var eventd: String { Products.eventd }
    /// The built `eventctl` (see `Products`).
    public static var eventctl: String { Products.eventctl }

    // MARK: - Life cycle

    /// A harness with a fresh temporary directory (nothing started); prefer `with`.
    public init(arguments: [String] = [], environment: [String: String] = [:]) throws {
        var template = Array("/tmp/eventd-dt-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        dbPath = directory + "/events.db"
        socketPath = directory + "/feed.sock"
        logPath = directory + "/eventd.log"
        self.arguments = arguments
        self.environment = environment
    }

    deinit {
        // Last resort; `with` normally cleaned up already.
        if let pid { ChildProcess.killAndReap(pid) }
        for other in others { ChildProcess.killAndReap(other) }
        try? FileManager.default.removeItem(atPath: directory)
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
        if pid != nil { throw HarnessError("the daemon is already running") }
        let before = logLineCount(containing: "listening on")
        let child = try ChildProcess.spawn(Self.eventd, daemonArguments(extraArguments),
                                           environment: daemonEnvironment(extra),
                                           stdoutPath: logPath, stderrPath: logPath)
        pid = child
        let deadline = monotonicNow() + timeout
        while logLineCount(containing: "listening on") == before {
            if let exit = ChildProcess.poll(child) {
                pid = nil
                lastExit = exit
                throw HarnessError("eventd exited (\(exit)) before it listened; log:\n\(log)")
            }
            if monotonicNow() >= deadline { throw HarnessError("eventd did not listen within \(timeout) s; log:\n\(log)") }
            try await pause(0.01)
        }
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
        let exit = (try? await ChildProcess.wait(current, timeout: timeout)) ?? nil
        if let exit {
            lastExit = exit
        } else {
            ChildProcess.killAndReap(current)
            lastExit = .signaled(SIGKILL)
        }
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
        try? FileManager.default.removeItem(atPath: directory)
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
    public func residentKiB() -> Int? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    // MARK: - eventctl

    /// Runs `eventctl --db … --socket … ARGS`.
    public func eventctl(_ args: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(Self.eventctl, ["--db", dbPath, "--socket", socketPath] + args,
                                   environment: daemonEnvironment(), directory: directory)
    }

    /// Writes `ics` to `file` in the temporary directory and imports it into `calendar`
    /// (re-importing the same file synchronises). eventctl then asks the daemon to refresh.
    @discardableResult
    public func importCalendar(_ ics: String, file: String = "work.ics", calendar: String = "work") async throws -> String {
        let path = directory + "/" + file
        try ics.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await eventctl(["import", path, "--calendar", calendar])
        guard result.succeeded else {
            throw HarnessError("eventctl import failed (\(result.exit)): \(result.stderr)")
        }
        return result.stdout
    }

    // MARK: - The feed

    /// A new feed connection (the `hello` read and checked unless `readHello` is false).
    public func connect(readHello: Bool = true) async throws -> FeedClient {
        try await FeedClient.connect(path: socketPath, readHello: readHello)
    }

    /// Connects and subscribes; returns the client and the state of its first snapshot.
    public func subscribe(_ view: JSONValue = DaemonHarness.weekView, timeout: Double = 5) async throws -> (FeedClient, FeedState) {
        let client = try await connect()
        try await client.send(["op": "subscribe", "view": view])
        let snapshot = try await client.next("snapshot", timeout: timeout)
        return (client, try FeedState(snapshot: snapshot))
    }

    /// One `{"op":"snapshot"}` over a fresh connection.
    public func oneShotSnapshot(_ view: JSONValue = DaemonHarness.weekView) async throws -> FeedState {
        let client = try await connect()
        defer { client.close() }
        let answer = try await client.request(["op": "snapshot", "view": view])
        return try FeedState(snapshot: answer)
    }

    /// Waits until the (active) view's state reaches `seq`, asking with one-shot snapshots.
    public func waitForSeq(_ seq: Int64, view: JSONValue = DaemonHarness.weekView, timeout: Double = 5) async throws -> FeedState {
        var last: FeedState?
        let reached = try await eventually(timeout: timeout, every: 0.05) {
            last = try await oneShotSnapshot(view)
            return last!.seq >= seq
        }
        guard reached, let last else { throw HarnessError("the view did not reach seq \(seq) (last \(last?.seq ?? -1))") }
        return last
    }

    /// The answer to `{"op":"status"}` over a fresh connection.
    public func status() async throws -> JSONValue {
        let client = try await connect()
        defer { client.close() }
        return try await client.request(["op": "status"])
    }
}
