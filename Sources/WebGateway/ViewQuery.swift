import CanonicalJSON
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
    static let gatewayNames: Set<String> = ["token"]

    /// The view of `request`'s query; an empty object when it names nothing.
    public static func view(_ request: HTTPRequest) throws(Problem) -> JSONValue {
        var view: [String: JSONValue] = [:]
        var calendars: [JSONValue] = []
        for (name, value) in request.query {
            switch name {
            case "tz", "from", "empty_days":
                guard !value.isEmpty else { continue }
                view[name] = .string(value)
            case "days", "past_days":
                guard !value.isEmpty else { continue }
                guard let n = Int64(value) else { throw Problem(description: "\(name) must be a whole number, not '\(value)'") }
                view[name] = .int(n)
            case "calendar", "calendars":
                // The dashboard's filter sends one name per parameter; a comma list works too.
                for part in value.split(separator: ",") where !part.isEmpty { calendars.append(.string(String(part))) }
            default:
                guard gatewayNames.contains(name) else { throw Problem(description: "unknown parameter '\(name)'") }
            }
        }
        if !calendars.isEmpty { view["calendars"] = .array(calendars) }
        return .object(view)
    }

    /// The `subscribe` request for `view`, resuming after `lastEventID` when it is a
    /// feed position (`EPOCH.SEQ`).
    public static func subscribe(view: JSONValue, lastEventID: String?) -> Request {
        let position = lastEventID.flatMap(ServerSentEvent.position(lastEventID:))
        return .subscribe(view: view, resume: position.map { Request.Resume(epoch: $0.epoch, seq: $0.seq) })
    }
}
