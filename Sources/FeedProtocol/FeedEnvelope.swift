import CanonicalJSON

/// A feed line's envelope: its top-level `type`, `epoch`, `seq` and `code`, what a
/// client passing lines through untouched needs (the gateway, to make each line an
/// event). Read from a parsed message, or found in one pass over the bytes without
/// building the rest: a snapshot of tens of megabytes is then scanned, not parsed into
/// values, on the loop that serves every other browser. The lines' sender is trusted for
/// their shape (its peer is checked); the browser parses the data itself.
public struct FeedEnvelope {
    /// The message's `type`, as sent (a newer daemon's type too).
    public var type: String
    /// `epoch` and `seq`, when both are there.
    public var position: (epoch: String, seq: Int64)?
    /// An `error`'s `code`.
    public var code: String?

    /// The message kind, when this client knows it.
    public var kind: FeedMessage.Kind? { FeedMessage.Kind(rawValue: type) }

    /// The envelope of a parsed message.
    public init(_ message: FeedMessage) {
        type = message.type
        position = message.position.map { ($0.epoch, $0.seq) }
        if case .error(let error) = message { code = error.code.rawValue }
    }

    /// The envelope of `line`; nil when it is not a JSON object with a string `type`.
    public init?(_ line: [UInt8]) {
        var fields: [String: JSONValue] = [:]
        let found: Bool = line.withUnsafeBufferPointer { bytes in
            var i = Self.skipSpace(bytes, 0)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return false }
            i += 1
            while true {
                i = Self.skipSpace(bytes, i)
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return false }
                let keyEnd = Self.skipString(bytes, i)
                guard keyEnd < bytes.count else { return false }
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<(keyEnd - 1)]), as: UTF8.self)
                i = Self.skipSpace(bytes, keyEnd)
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
                let start = Self.skipSpace(bytes, i + 1)
                let end = Self.skipValue(bytes, start)
                guard end <= bytes.count, end > start else { return false }
                if [FeedMessage.typeKey, "epoch", "seq", "code"].contains(key) {
                    fields[key] = try? JSONValue.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
                i = Self.skipSpace(bytes, end)
                guard i < bytes.count else { return false }
                if bytes[i] == UInt8(ascii: "}") { return true }
                guard bytes[i] == UInt8(ascii: ",") else { return false }
                i += 1
            }
        }
        guard found, let type = fields[FeedMessage.typeKey]?.stringValue else { return nil }
        self.type = type
        if let epoch = fields["epoch"]?.stringValue, let seq = fields["seq"]?.intValue { position = (epoch, seq) }
        code = fields["code"]?.stringValue
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        return i
    }

    /// Just past the string that opens at `from` (a quote); past the end when unclosed.
    private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from + 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return bytes.count + 1
    }

    /// Just past the value that starts at `from`: a string, an object or array (nested
    /// to any depth), or a scalar up to the next `,`, `}`, `]` or space.
    private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        guard from < bytes.count else { return bytes.count + 1 }
        switch bytes[from] {
        case UInt8(ascii: "\""):
            return skipString(bytes, from)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var i = from
            var depth = 0
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""): i = skipString(bytes, i); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return bytes.count + 1
        default:
            var i = from
            while i < bytes.count, !",}] \t\r\n".utf8.contains(bytes[i]) { i += 1 }
            return i
        }
    }
}
