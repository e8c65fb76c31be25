import Foundation
import CanonicalJSON

// What a test does with a running daemon: import with the real eventctl, and talk to
// it through the socket, as any client would.
extension DaemonHarness {
    // MARK: - eventctl

    /// Runs `eventctl --db … --socket … ARGS` (a hang guard of `timeout` seconds).
    public func eventctl(_ args: [String], timeout: Double = 30) async throws -> ChildProcess.Result {
        try await ChildProcess.run(Self.eventctl, ["--db", dbPath, "--socket", socketPath] + args,
                                   environment: daemonEnvironment(), directory: directory, timeout: timeout)
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
    public func subscribe(_ view: JSONValue = DaemonHarness.weekView, protocolVersion: Int64 = 1,
                          timeout: Double = 5) async throws -> (FeedClient, FeedState) {
        let client = try await connect()
        try await client.send(protocolVersion == 1 ? ["op": "subscribe", "view": view]
                                                   : ["op": "subscribe", "view": view, "protocol": .int(protocolVersion)])
        let snapshot = try await client.next("snapshot", timeout: timeout)
        return (client, try FeedState(snapshot: snapshot))
    }

    /// One `{"op":"snapshot"}` over a fresh connection.
    public func oneShotSnapshot(_ view: JSONValue = DaemonHarness.weekView, timeout: Double = 5) async throws -> FeedState {
        let client = try await connect()
        defer { client.close() }
        let answer = try await client.request(["op": "snapshot", "view": view], timeout: timeout)
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
