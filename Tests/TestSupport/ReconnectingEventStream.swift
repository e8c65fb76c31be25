import Foundation

/// An event stream of eventd-web followed as a page's EventSource follows it: when the
/// stream ends (an `offline` event, or the connection closed) it is opened again after
/// the `retry` the server gave, with the last event's id as `Last-Event-ID`. It keeps the
/// digest of the last snapshot or diff and whether the current stream is live (its
/// `hello` came, nothing ended it since).
// @unchecked: used by one task at a time (the test that owns it), as `EventStreamClient`.
public final class ReconnectingEventStream: @unchecked Sendable {
    public let gateway: WebGatewayHarness
    public let query: String
    /// The stream open now, if any.
    public private(set) var stream: EventStreamClient?
    /// The last snapshot's or diff's id and digest, and its data (the feed line).
    public private(set) var lastID: String?
    public private(set) var digest: String?
    public private(set) var lastData: String?
    /// Whether the current stream said `hello` and has not ended.
    public private(set) var live = false
    /// Streams opened after the first.
    public private(set) var reconnections = 0
    /// Every event's type, across reconnections.
    public private(set) var seen: [String] = []
    private var cursor = 0
    private var reopenAt = 0.0

    /// Opens the stream.
    public init(_ gateway: WebGatewayHarness, query: String) async throws {
        self.gateway = gateway
        self.query = query
        stream = try await gateway.stream(query: query)
    }

    /// Takes what arrived, and reopens the stream when it ended and its retry is due.
    public func poll() async {
        guard let current = stream else {
            guard monotonicNow() >= reopenAt else { return }
            do {
                stream = try await gateway.stream(query: query, lastEventID: lastID)
                cursor = 0
                reconnections += 1
            } catch {
                reopenAt = monotonicNow() + 0.5
            }
            return
        }
        let events = current.poll()
        while cursor < events.count {
            let event = events[cursor]
            cursor += 1
            seen.append(event.event)
            switch event.event {
            case "hello": live = true
            case "snapshot", "diff":
                lastID = event.id ?? lastID
                digest = (try? event.json())?["digest"]?.stringValue ?? digest
                lastData = event.data
            case "offline": return end(current)
            default: break
            }
        }
        if current.connection.closedByPeer { end(current) }
    }

    private func end(_ current: EventStreamClient) {
        live = false
        stream = nil
        current.connection.close()
        reopenAt = monotonicNow() + Double(current.retry ?? 2000) / 1000
    }

    /// Whether it is live on the state whose digest is `digest`.
    public func isConsistent(with digest: String?) -> Bool { live && digest != nil && self.digest == digest }

    /// Polls every stream until each is consistent with `digest` (true), or `timeout`.
    public static func waitUntilConsistent(_ streams: [ReconnectingEventStream], with digest: String?, timeout: Double) async throws -> Bool {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            for s in streams { await s.poll() }
            if streams.allSatisfy({ $0.isConsistent(with: digest) }) { return true }
            try await pause(0.02)
        }
        return false
    }
}
