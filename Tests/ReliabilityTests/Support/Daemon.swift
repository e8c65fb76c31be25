import Foundation
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One `eventd` run by a test: TestSupport's `DaemonHarness` on paths in the sandbox
/// (its database, socket and log), driven from the test's own thread; the sandbox
/// stops it at clean-up.
// @unchecked: a daemon belongs to one test body, which runs on one thread (`runIsolated`).
final class DaemonProcess: @unchecked Sendable {
    let sandbox: Sandbox
    let harness: DaemonHarness

    init(_ sandbox: Sandbox, db: String? = nil, socket: String? = nil, arguments: [String] = []) {
        self.sandbox = sandbox
        harness = DaemonHarness(directory: sandbox.directory, db: db ?? sandbox.path("events.db"),
                                socket: socket ?? sandbox.path("feed.sock"),
                                log: sandbox.path("eventd-\(UUID().uuidString.prefix(6)).log"), arguments: arguments)
        sandbox.registerLog(harness.logPath)
        sandbox.atCleanUp { [harness] in harness.stopBlocking(timeout: 3) }
    }

    var db: String { harness.dbPath }
    var socket: String { harness.socketPath }
    var log: String { harness.logPath }
    var pid: pid_t? { harness.pid }
    var logText: String { harness.log }

    func logLines(containing text: String) -> [Substring] {
        logText.split(separator: "\n").filter { $0.contains(text) }
    }

    /// Starts eventd (fake clock, UTC) and waits until it logs that it listens.
    func start(timeout: Double = 20) throws { try harness.startBlocking(timeout: timeout) }

    /// SIGKILL (a crash).
    func crash() { harness.crash() }

    /// SIGTERM (SIGKILL after 5 s); returns how it ended.
    @discardableResult
    func stop() -> ProcessExit? {
        guard harness.pid != nil else { return nil }
        return harness.stopBlocking() ?? .signaled(SIGKILL)
    }

    func signal(_ s: Int32) { harness.signal(s) }

    var residentKiB: Int? { harness.residentKiB() }
    var descriptorCount: Int? { pid.flatMap { processDescriptorCount($0) } }

    // MARK: Requests

    /// One request on a fresh connection; the first answer that is not a heartbeat.
    func request(_ request: JSONValue, timeout: Double = 10) throws -> JSONValue {
        try harness.requestBlocking(request, timeout: timeout)
    }

    func status() throws -> JSONValue { try request(["op": "status"]) }

    func ping() -> Bool { ((try? request(["op": "ping"], timeout: 5))?["type"]?.stringValue) == "pong" }

    /// A one-shot snapshot of `view`.
    func snapshot(_ view: JSONValue) throws -> JSONValue {
        let m = try request(["op": "snapshot", "view": view])
        guard m["type"]?.stringValue == "snapshot" else { throw RelError("snapshot request answered with \(m)") }
        return m
    }
}

/// The `sections` digest of a snapshot message, recomputed locally (not trusting its `digest`).
func snapshotDigest(_ message: JSONValue) throws -> String {
    FeedState.digest(of: message["sections"]?.arrayValue ?? [])
}

/// Items of a snapshot message, flattened.
func snapshotItems(_ message: JSONValue) -> [JSONValue] {
    (message["sections"]?.arrayValue ?? []).flatMap { $0["items"]?.arrayValue ?? [] }
}

/// What `eventctl subscribe --format ndjson` printed, replayed with the reference
/// application (TestSupport's `FeedState`) as the file grows: its local state, and the
/// messages it saw.
final class NdjsonReplay {
    let path: String
    private var offset = 0
    private var partial: [UInt8] = []
    private var pendingResync: Int?

    private(set) var state: FeedState?
    private(set) var types: [String] = []
    private(set) var resyncReasons: [String] = []
    private(set) var snapshots = 0
    private(set) var diffs = 0
    private(set) var mismatches = 0
    private(set) var problems: [String] = []
    /// For each resync: the type of the message that followed it (nil: none yet).
    private(set) var afterResync: [String?] = []

    init(path: String) { self.path = path }

    /// Reads what was appended since the last call; returns self.
    @discardableResult
    func update() -> NdjsonReplay {
        guard let handle = FileHandle(forReadingAtPath: path) else { return self }
        defer { try? handle.close() }
        handle.seek(toFileOffset: UInt64(offset))
        let data = handle.readDataToEndOfFile()
        offset += data.count
        partial += data
        // The last line may still be being written.
        while let nl = partial.firstIndex(of: 10) {
            let line = Array(partial[..<nl])
            partial.removeFirst(nl + 1)
            process(line)
        }
        return self
    }

    private func process(_ line: [UInt8]) {
        guard !line.isEmpty else { return }
        guard let m = try? JSONValue.parse(line, maxDepth: 64) else {
            problems.append("not JSON: \(String(decoding: line.prefix(80), as: UTF8.self))")
            return
        }
        let type = m["type"]?.stringValue ?? "?"
        types.append(type)
        if let p = pendingResync { afterResync[p] = type; pendingResync = nil }
        switch type {
        case "snapshot":
            snapshots += 1
            do { state = try FeedState(snapshot: m) } catch { problems.append("bad snapshot: \(error)") }
        case "diff":
            diffs += 1
            guard var s = state else { problems.append("diff before snapshot"); return }
            do {
                try s.apply(m)
                state = s
            } catch let error as ApplyError where error.isDigestMismatch {
                mismatches += 1
                state = nil
                problems.append("digest mismatch at seq \(m["seq"]?.description ?? "?")")
            } catch {
                problems.append("diff does not apply: \(error)")
                state = nil
            }
        case "resync":
            resyncReasons.append(m["reason"]?.stringValue ?? "?")
            afterResync.append(nil)
            pendingResync = afterResync.count - 1
        case "hello", "heartbeat":
            break
        default:
            problems.append("unexpected: \(String(decoding: line.prefix(120), as: UTF8.self))")
        }
    }
}
