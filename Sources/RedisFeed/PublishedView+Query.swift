import FeedProtocol

extension PublishedView {
    /// Why a `--publish-view` query is not a view.
    public struct QueryProblem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The view of a query as the dashboard's `/api/events` takes it (`tz`, `from`,
    /// `days`, `past_days`, `calendar` (repeatable, or a comma list), `empty_days`), so
    /// that `--publish-view` names the same view, and key, as a gateway serving that URL.
    /// Only the shape is checked; eventd checks the values when the view is subscribed.
    public init(query: String) throws(QueryProblem) {
        var parameters = ViewParameters()
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.percentDecoded(parts[0]),
                  let value = Self.percentDecoded(parts.count > 1 ? parts[1] : "") else {
                throw QueryProblem(description: "bad percent-encoding in '\(pair)'")
            }
            let known: Bool
            do { known = try parameters.take(name, value) } catch {
                throw QueryProblem(description: "\(name) must be a whole number, not '\(value)'")
            }
            guard known else {
                throw QueryProblem(description: "unknown view parameter '\(name)' (tz, from, days, past_days, calendar, empty_days)")
            }
        }
        self.init(view: parameters.view)
    }

    /// `+` as a space and `%XX` as a byte; nil for a bad escape or invalid UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h < utf8.endIndex, utf8.index(after: h) < utf8.endIndex,
                      let byte = UInt8(String(decoding: utf8[h...utf8.index(after: h)], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
                i = utf8.index(h, offsetBy: 2)
                continue
            }
            bytes.append(c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
            i = utf8.index(after: i)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
