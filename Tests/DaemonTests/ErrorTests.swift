import Foundation
import CanonicalJSON
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every error code of docs/protocol.md, what happens to the connection after it,
/// and that other clients never notice.
@Suite(.timeLimit(.minutes(1)))
struct ErrorTests {
    static let calendar = icsCalendar([TestEvent("e1@x", "20261130T100000Z", "20261130T110000Z", "Only event")])

    static let badRequests: [(line: String, code: String)] = [
        ("this is not JSON", "bad_request"),
        ("{\"op\":\"ping\"", "bad_request"),
        ("[1,2,3]", "bad_request"),
        ("\"ping\"", "bad_request"),
        ("42", "bad_request"),
        ("null", "bad_request"),
        ("{}", "bad_request"),
        ("{\"view\":{\"days\":3}}", "bad_request"),
        ("{\"op\":42}", "bad_request"),
        ("{\"op\":null}", "bad_request"),
        ("{\"op\":[\"ping\"]}", "bad_request"),
        ("{\"op\":\"subscribe\",\"resume\":{\"epoch\":1,\"seq\":1}}", "bad_request"),
        ("{\"op\":\"subscribe\",\"resume\":{\"epoch\":\"x\"}}", "bad_request"),
        ("{\"op\":\"frobnicate\"}", "unknown_op"),
        ("{\"op\":\"PING\"}", "unknown_op"),
        ("{\"op\":\"\"}", "unknown_op"),
    ]

    static let invalidViews: [JSONValue] = [
        ["tz": "Mars/Olympus_Mons"],
        ["tz": ""],
        ["calendars": ["no-such-calendar"]],
        ["days": 0],
        ["days": 5000],
        ["days": 3661],
        ["days": -1],
        ["past_days": -1],
        ["past_days": 367],
        ["days": "14"],
        ["days": 1.5],
        ["days": true],
        ["tz": 5],
        ["calendars": "work"],
        ["calendars": [1]],
        ["empty_days": "sometimes"],
        ["from": "2026-13-01"],
        ["from": 20261201],
        ["colour": "red"],
        "a view",
        [1, 2],
    ]

    /// After every bad request the same connection still answers ping with pong, and
    /// a subscriber on another connection sees nothing.
    @Test func badRequestsAnswerErrorsAndKeepTheConnection() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(Self.calendar)
            try await daemon.start()
            let (bystander, _) = try await daemon.subscribe()
            let client = try await daemon.connect()

            var lines = Self.badRequests
            for view in Self.invalidViews {
                lines.append((JSONValue.object(["op": "subscribe", "view": view]).canonicalString(), "invalid_view"))
                lines.append((JSONValue.object(["op": "snapshot", "view": view]).canonicalString(), "invalid_view"))
            }
            for (line, code) in lines {
                try await client.send(line: line)
                let answer = try await client.next()
                #expect(answer["type"] == "error" && answer["code"]?.stringValue == code,
                        "\(line) → \(FeedClient.brief(answer)), expected \(code)")
                #expect((answer["message"]?.stringValue ?? "").isEmpty == false, "\(line): an error needs a message")
                #expect(try await client.request(["op": "ping"])["type"] == "pong", "after \(line)")
            }

            // Not UTF-8 at all, and a blank line (ignored, no answer).
            try await client.sendRaw([0xff, 0xfe, 0x7b, 0x0a])
            let binary = try await client.next()
            #expect(binary["code"] == "bad_request", "invalid UTF-8 → \(FeedClient.brief(binary))")
            try await client.sendRaw(Array("\n  \n".utf8))
            #expect(try await client.request(["op": "ping"])["type"] == "pong", "blank lines get no answer")

            // The connection is still good for real work, and the bystander noticed nothing.
            try await client.send(["op": "subscribe", "view": DaemonHarness.weekView])
            #expect(try await client.next("snapshot")["seq"] != nil)
            let disturbed = try await bystander.messageWithin(0.2)
            #expect(disturbed.map(FeedClient.brief) == nil, "another client's errors reached the bystander: \(disturbed.map(FeedClient.brief) ?? "")")
            #expect(try await bystander.request(["op": "ping"])["type"] == "pong")
        }
    }

    /// A request line over 64 KiB: `line_too_long`, then the connection is closed.
    @Test func overlongLinesAreRefusedAndClosed() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.start()
            let bystander = try await daemon.connect()

            // Exactly 64 KiB (65,536 bytes before the newline) is still allowed.
            let prefix = "{\"op\":\"ping\",\"pad\":\""
            let atLimit = prefix + String(repeating: "x", count: 65_536 - prefix.utf8.count - 2) + "\"}"
            #expect(atLimit.utf8.count == 65_536)
            let limitClient = try await daemon.connect()
            try await limitClient.send(line: atLimit)
            #expect(try await limitClient.next()["type"] == "pong", "a 65,536-byte request is within the limit")

            // 70 KiB with a newline, and 70 KiB without one (still unfinished).
            for terminated in [true, false] {
                let client = try await daemon.connect()
                let long = prefix + String(repeating: "y", count: 70 * 1024) + "\"}" + (terminated ? "\n" : "")
                do {
                    try await client.sendRaw(Array(long.utf8))
                } catch {
                    // The daemon may close while we are still writing; its answer is what counts.
                }
                let answer = try await client.next(timeout: 5)
                #expect(answer["type"] == "error" && answer["code"] == "line_too_long",
                        "terminated: \(terminated) → \(FeedClient.brief(answer))")
                let ending = await client.readUntilClosed(timeout: 3)
                #expect(ending.isClosed, "after line_too_long the connection must close, got \(ending)")
            }
            #expect(try await bystander.request(["op": "ping"])["type"] == "pong")
        }
    }

    /// `--max-clients 2`: the third connection gets `overloaded` and EOF; a slot freed
    /// is usable again.
    @Test func tooManyConnectionsAreOverloaded() async throws {
        try await DaemonHarness.with(arguments: ["--max-clients", "2"]) { daemon in
            try await daemon.start()
            let first = try await daemon.connect()
            let second = try await daemon.connect()
            let third = try await daemon.connect(readHello: false)
            let refusal = try await third.next()
            #expect(refusal["type"] == "error" && refusal["code"] == "overloaded", "\(FeedClient.brief(refusal))")
            #expect(await third.readUntilClosed(timeout: 3) == .eof)
            #expect(try await second.request(["op": "ping"])["type"] == "pong")

            first.close()
            var hello: JSONValue?
            let admitted = try await eventually(timeout: 3, every: 0.05) {
                let again = try await daemon.connect(readHello: false)
                let message = try await again.next()
                hello = message
                return message["type"] == "hello"
            }
            #expect(admitted, "a freed slot should admit a new client, last answer \(hello.map(FeedClient.brief) ?? "")")
            #expect(daemon.logLineCount(containing: "connection refused") >= 1)
        }
    }
}

/// Clients such as `printf '…\n' | socat - UNIX-CONNECT:…` send their request and
/// close their writing side at once; they must still get the answer.
@Suite(.timeLimit(.minutes(1)))
struct HalfCloseTests {
    @Test(arguments: ["status", "snapshot", "subscribe"])
    func aHalfClosedClientStillGetsItsAnswer(op: String) async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(ErrorTests.calendar)
            try await daemon.start()
            let client = try await daemon.connect()
            // A view nobody has asked for yet, so the answer has to be computed.
            try await client.send(["op": .string(op), "view": ["tz": "Pacific/Auckland", "days": 5]])
            #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
            let answer = try await client.next(timeout: 3)
            #expect(answer["type"]?.stringValue == (op == "subscribe" ? "snapshot" : op), "\(FeedClient.brief(answer))")
            #expect(await client.readUntilClosed(timeout: 3) == .eof, "then the daemon closes")
        }
    }
}
