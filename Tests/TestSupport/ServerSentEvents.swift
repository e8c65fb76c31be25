import Foundation
import CanonicalJSON

/// One Server-Sent Event as a browser's EventSource would see it.
public struct ServerSentEventRecord: Sendable, Equatable {
    /// `event:` (the feed message's type).
    public var event: String
    /// `id:`, if any.
    public var id: String?
    /// `data:`.
    public var data: String
    /// The data as JSON.
    public func json() throws -> JSONValue { try JSONValue.parse(data) }
}

/// An event stream from eventd-web, read event by event.
// @unchecked: used by one task at a time (the test that owns it), as `HTTPConnection`.
public final class EventStreamClient: @unchecked Sendable {
    /// The connection underneath.
    public let connection: HTTPConnection
    private var consumed = 0
    /// Every event so far, in order.
    public private(set) var events: [ServerSentEventRecord] = []
    /// Comment lines seen (`: keep-alive`).
    public private(set) var comments = 0
    /// The last `retry:` value.
    public private(set) var retry: Int?
    /// Events before this index were returned by `next` or skipped by it.
    private var cursor = 0

    /// Opens `/api/events?QUERY` (with `Last-Event-ID` when given) and checks the head.
    public init(port: UInt16, query: String, lastEventID: String? = nil, headers: [String] = []) async throws {
        connection = try HTTPConnection(port: port)
        var text = "GET /api/events?\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        if let lastEventID { text += "Last-Event-ID: \(lastEventID)\r\n" }
        for h in headers { text += h + "\r\n" }
        try connection.send(text + "\r\n")
        try await connection.wait(timeout: 10, for: "the stream's head") { $0.text.contains("\r\n\r\n") }
        guard connection.status == 200, connection.header("content-type")?.hasPrefix("text/event-stream") == true else {
            throw HarnessError("not an event stream:\n\(connection.text)")
        }
        consumed = connection.text.utf8.count - connection.body.utf8.count
    }

    /// Reads events from a connection whose request the caller sent (and whose head may
    /// not have arrived yet: it is skipped when it does).
    public init(reading connection: HTTPConnection) {
        self.connection = connection
        consumed = -1
    }

    /// Parses complete events received so far.
    private func parse() {
        connection.poll()
        let bytes = connection.received
        if consumed < 0 {
            guard let head = connection.text.range(of: "\r\n\r\n") else { return }
            consumed = connection.text[..<head.upperBound].utf8.count
        }
        while let end = Self.blankLine(in: bytes, from: consumed) {
            let block = String(decoding: bytes[consumed..<end], as: UTF8.self)
            consumed = end + 2
            var record = ServerSentEventRecord(event: "message", id: nil, data: "")
            var hasData = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") { comments += 1; continue }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let field = String(parts[0])
                var value = parts.count == 2 ? String(parts[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch field {
                case "event": record.event = value
                case "id": record.id = value
                case "data": record.data += (hasData ? "\n" : "") + value; hasData = true
                case "retry": retry = Int(value)
                default: break
                }
            }
            if hasData { events.append(record) }
        }
    }

    private static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == 10 && bytes[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// Waits for the next event of type `event` (skipping others since the last one
    /// returned); returns it.
    public func next(_ event: String, timeout: Double = 10) async throws -> ServerSentEventRecord {
        let deadline = monotonicNow() + timeout
        while true {
            parse()
            while cursor < events.count {
                defer { cursor += 1 }
                if events[cursor].event == event { return events[cursor] }
            }
            if connection.closedByPeer { throw HarnessError("stream closed while waiting for '\(event)'; events: \(events.map(\.event))") }
            if monotonicNow() >= deadline { throw HarnessError("timed out waiting for '\(event)'; events: \(events.map(\.event))") }
            try await pause(0.005)
        }
    }

    /// Every event received so far, without waiting.
    public func poll() -> [ServerSentEventRecord] {
        parse()
        return events
    }

    /// Waits until the server ends the stream; returns the events that came before.
    public func waitForEnd(timeout: Double = 10) async throws -> [ServerSentEventRecord] {
        try await connection.waitForClose(timeout: timeout)
        parse()
        return events
    }
}
