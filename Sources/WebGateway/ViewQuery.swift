import FeedProtocol

/// A view (docs/data-model.md) from a URL's query: `tz`, `from`, `days`, `past_days`,
/// `calendar` (repeatable), `empty_days`. Only the shape is checked here; eventd checks
/// the values (zones, calendars, ranges) and answers `invalid_view`, which the gateway
/// passes on.
public enum ViewQuery {
    /// Why a query is not a view.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// What is wrong with the query (answered with 400).
        public var description: String
    }

    /// Query names the gateway itself uses (not view fields).
    static let gatewayNames: Set<String> = ["token", "protocol"]

    /// The feed protocol an event stream asks for (`protocol`: 1, the default, or 2;
    /// docs/protocol.md), which says which digest its messages carry.
    public static func protocolVersion(_ request: HTTPRequest) throws(Problem) -> Int64 {
        guard let text = request.queryValue("protocol") else { return 1 }
        guard let n = Int64(text), FeedMessage.protocolVersions.contains(n) else {
            throw Problem(description: "protocol must be 1 or 2, not '\(shown(text))'")
        }
        return n
    }

    /// The view of `request`'s query; an empty object when it names nothing.
    public static func view(_ request: HTTPRequest) throws(Problem) -> ViewFields {
        var parameters = ViewParameters()
        for (name, value) in request.query {
            let known: Bool
            do { known = try parameters.take(name, value) } catch {
                throw Problem(description: "\(name) must be a whole number, not '\(shown(value))'")
            }
            guard known || gatewayNames.contains(name) else { throw Problem(description: "unknown parameter '\(shown(name, limit: nameLimit))'") }
        }
        return parameters.view
    }

    /// How much of an unknown parameter's name is quoted: less than the shortest token
    /// (16 characters), so a token sent as a name (`?TOKEN=1`) is never written whole.
    static let nameLimit = 12

    /// A query name or value as a 400's body and the log quote it: control characters
    /// (C0, DEL, C1: a terminal's escapes, a forged log line) as `\xNN`, a backslash
    /// doubled, at most `limit` characters.
    static func shown(_ text: String, limit: Int = 64) -> String {
        var out = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit { out += "…"; break }
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F..<0xA0:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The `subscribe` request for `view`, resuming after `lastEventID` when it is a
    /// feed position (`EPOCH.SEQ`).
    public static func subscribe(view: ViewFields, lastEventID: String?, protocolVersion: Int64 = 1) -> Request {
        let position = lastEventID.flatMap(ServerSentEvent.position(lastEventID:))
        // The dashboard paints calendar colours: a new one comes as a `calendars` event.
        return .subscribe(view: view, resume: position.map { Request.Resume(epoch: $0.epoch, seq: $0.seq) },
                          protocolVersion: protocolVersion, calendars: true)
    }
}
