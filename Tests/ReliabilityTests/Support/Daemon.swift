import Foundation
import Feed
import Support
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// One `eventd` run by a test: its database, socket and log live in the sandbox.
final class DaemonProcess: @unchecked Sendable {
    let sandbox: Sandbox
    let db: String
    let socket: String
    let log: String
    var arguments: [String]
    private(set) var pid: pid_t?

    init(_ sandbox: Sandbox, db: String? = nil, socket: String? = nil, arguments: [String] = []) {
        self.sandbox = sandbox
        self.db = db ?? sandbox.path("events.db")
        self.socket = socket ?? sandbox.path("feed.sock")
        self.log = sandbox.path("eventd-\(UUID().uuidString.prefix(6)).log")
        self.arguments = arguments
        sandbox.registerLog(log)
    }

    var logText: String { readText(log) }

    func logLines(containing text: String) -> [Substring] {
        logText.split(separator: "\n").filter { $0.contains(text) }
    }

    /// Starts eventd (fake clock, UTC) and waits until it logs that it listens.
    func start(timeout: Double = 20) throws {
        if pid != nil { throw RelError("eventd already running") }
        let before = logLines(containing: "listening on").count
        let env = Sandbox.childEnvironment(["EVENTD_FAKE_NOW": fakeNow])
        let child = try sandbox.spawn(Products.eventd, ["--db", db, "--socket", socket, "--tz", "UTC"] + arguments,
                                      environment: env, stdout: log, stderr: log)
        pid = child
        let deadline = monotonicNow() + timeout
        while logLines(containing: "listening on").count == before {
            if let exit = sandbox.poll(child) {
                pid = nil
                throw RelError("eventd exited (\(exit)) before listening; log:\n\(logText)")
            }
            if monotonicNow() > deadline { throw RelError("eventd did not listen within \(timeout) s; log:\n\(logText)") }
            sleepSeconds(0.01)
        }
    }

    /// SIGKILL (a crash).
    func crash() {
        guard let p = pid else { return }
        sandbox.kill9(p)
        pid = nil
    }

    /// SIGTERM (SIGKILL after 5 s); returns how it ended.
    @discardableResult
    func stop() -> ProcessExit? {
        guard let p = pid else { return nil }
        pid = nil
        return sandbox.terminate(p)
    }

    func signal(_ s: Int32) { if let pid { kill(pid, s) } }

    var residentKiB: Int? { pid.flatMap { processResidentKiB($0) } }
    var descriptorCount: Int? { pid.flatMap { processDescriptorCount($0) } }

    // MARK: Requests

    /// Connects (close-on-exec), reads `hello`.
    func connect(timeout: Double = 5) throws -> FeedSocket {
        let s = try FeedSocket(path: socket)
        _ = fcntl(s.fd, F_SETFD, FD_CLOEXEC)
        guard let hello = try s.readMessage(timeout: timeout), hello.value["type"]?.stringValue == "hello" else {
            throw RelError("no hello from the daemon")
        }
        return s
    }

    /// One request on a fresh connection; the first answer that is not a heartbeat.
    func request(_ request: JSONValue, timeout: Double = 10) throws -> JSONValue {
        let s = try connect(timeout: timeout)
        try s.send(request)
        while true {
            guard let m = try s.readMessage(timeout: timeout) else { throw RelError("daemon closed the connection") }
            if m.value["type"]?.stringValue != "heartbeat" { return m.value }
        }
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
    try FeedClientState(snapshot: message).digest
}

/// Items of a snapshot message, flattened.
func snapshotItems(_ message: JSONValue) -> [JSONValue] {
    (message["sections"]?.arrayValue ?? []).flatMap { $0["items"]?.arrayValue ?? [] }
}

/// What `eventctl subscribe --format ndjson` printed, replayed with the reference
/// application as the file grows: its local state, and the messages it saw.
final class NdjsonReplay {
    let path: String
    private var offset = 0
    private var partial: [UInt8] = []
    private var pendingResync: Int?

    private(set) var state: FeedClientState?
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
            do { state = try FeedClientState(snapshot: m) } catch { problems.append("bad snapshot: \(error)") }
        case "diff":
            diffs += 1
            guard var s = state else { problems.append("diff before snapshot"); return }
            do {
                if try s.apply(diff: m) { state = s } else { mismatches += 1; state = nil; problems.append("digest mismatch at seq \(s.seq)") }
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
