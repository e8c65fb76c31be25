/// A parsed HTTP/1.x request head: what the gateway routes on. Bodies are never read
/// (only `GET` and `HEAD` are served), so a request is its head alone.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, ... as sent (methods are case-sensitive).
    public var method: String
    /// The request target as sent (`/api/events?tz=UTC`).
    public var target: String
    /// The target's path, percent-decoding left undone (routes are plain ASCII).
    public var path: String
    /// The query's `name=value` pairs, percent- and `+`-decoded, in order.
    public var query: [(name: String, value: String)]
    /// `1.0` or `1.1`.
    public var version: String
    /// Header fields in order, names lowercased, values without surrounding blanks.
    public var headers: [(name: String, value: String)]

    /// Whether the method is `HEAD` (a head without a body is answered).
    public var isHead: Bool { method == "HEAD" }

    /// The value of the header `name` (lowercase), if present once or more (the first).
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// How many times the header `name` (lowercase) appears.
    public func headerCount(_ name: String) -> Int { headers.filter { $0.name == name }.count }

    /// The last value of the query parameter `name`.
    public func queryValue(_ name: String) -> String? { query.last { $0.name == name }?.value }

    /// Every value of the query parameter `name` (`calendar=a&calendar=b`).
    public func queryValues(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }

    /// Equal method, target, version and header fields (in order).
    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }
}

extension HTTPRequest {
    /// Splits a target into its path and decoded query (nil: not in origin form, or a
    /// bad percent escape).
    static func splitTarget(_ target: String) -> (path: String, query: [(name: String, value: String)])? {
        guard target.hasPrefix("/") else { return nil }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        var query: [(name: String, value: String)] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecode(kv[0]), let value = percentDecode(kv.count == 2 ? kv[1] : "") else { return nil }
                query.append((name, value))
            }
        }
        return (path, query)
    }

    /// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte; the
    /// result must be UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
