/// Collects and parses one HTTP/1.x request head, at most `limit` bytes (RFC 9112).
/// Bytes come in as they arrive; nothing is parsed until the blank line ends the head,
/// so a head trickled a byte at a time costs one search per byte at the buffer's end.
public struct HTTPHeadParser: Sendable {
    /// What the bytes so far amount to.
    public enum Outcome: Sendable, Equatable {
        /// More bytes are needed.
        case incomplete
        /// A complete head (bytes after it, a body or a pipelined request, are ignored:
        /// every answer closes the connection or turns it into a stream).
        case complete(HTTPRequest)
        /// A malformed or refused head: answer with this status and close.
        case invalid(HTTPStatus, String)
    }

    /// The most bytes a head may have (16 KiB; more is 431).
    public let limit: Int
    private var buffer: [UInt8] = []
    /// Where the search for the blank line resumes (bytes before it were searched).
    private var searched = 0

    /// A parser for heads of at most `limit` bytes.
    public init(limit: Int = 16 * 1024) { self.limit = limit }

    /// Adds received bytes and says whether the head is complete.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> Outcome {
        let room = limit - buffer.count
        buffer.append(contentsOf: bytes.prefix(max(0, room)))
        guard let end = headEnd() else {
            if bytes.count > room || buffer.count >= limit {
                return .invalid(.headerFieldsTooLarge, "request head over \(limit) bytes")
            }
            return .incomplete
        }
        return Self.parse(buffer[..<end])
    }

    /// The index just past the blank line (CRLF CRLF, or bare LF LF as RFC 9112 allows).
    private mutating func headEnd() -> Int? {
        var i = max(0, searched - 3)
        while i < buffer.count {
            if buffer[i] == 10 {
                if i + 1 < buffer.count, buffer[i + 1] == 10 { return i + 2 }
                if i + 2 < buffer.count, buffer[i + 1] == 13, buffer[i + 2] == 10 { return i + 3 }
            }
            i += 1
        }
        searched = buffer.count
        return nil
    }

    /// Parses a whole head (request line, fields, blank line).
    static func parse(_ head: ArraySlice<UInt8>) -> Outcome {
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        // RFC 9112 2.2: empty lines before the request line are ignored.
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { return .invalid(.badRequest, "empty request") }
        guard requestLine.allSatisfy({ $0 >= 0x21 && $0 < 0x7F || $0 == 0x20 }) else {
            return .invalid(.badRequest, "request line with control or non-ASCII bytes")
        }
        let words = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard words.count == 3, !words[0].isEmpty, words[0].allSatisfy(isTokenByte) else {
            return .invalid(.badRequest, "malformed request line")
        }
        let method = String(decoding: words[0], as: UTF8.self)
        let target = String(decoding: words[1], as: UTF8.self)
        let protocolName = String(decoding: words[2], as: UTF8.self)
        guard protocolName.hasPrefix("HTTP/") else { return .invalid(.badRequest, "malformed request line") }
        let version = String(protocolName.dropFirst(5))
        guard version == "1.1" || version == "1.0" else { return .invalid(.versionNotSupported, "HTTP/\(version) is not served") }

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let first = line.first, first != 0x20, first != 0x09 else {
                return .invalid(.badRequest, "obsolete line folding") // RFC 9112 5.2
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .invalid(.badRequest, "header line without a colon") }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return .invalid(.badRequest, "malformed header name") }
            var value = line[(colon + 1)...]
            while let b = value.first, b == 0x20 || b == 0x09 { value = value.dropFirst() }
            while let b = value.last, b == 0x20 || b == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else {
                return .invalid(.badRequest, "control bytes in a header value")
            }
            headers.append((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
        }
        guard let (path, query) = HTTPRequest.splitTarget(target) else {
            return .invalid(.badRequest, "request target not in origin form, or a bad escape")
        }
        return .complete(HTTPRequest(method: method, target: target, path: path, query: query, version: version, headers: headers))
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }
}
