import CHiredis

/// One Redis reply as a Swift value (RESP2, what hiredis 0.14 speaks): copied out of
/// hiredis's reply object, which is freed at once.
public enum RedisReply: Sendable, Equatable {
    /// A bulk string (binary-safe).
    case string([UInt8])
    /// A status reply (`+OK`, `+QUEUED`).
    case status(String)
    /// An error reply (`-ERR …`, `-WRONGPASS …`, `-OOM …`): a value, not a thrown error,
    /// so that a transaction's or a pipeline's other replies are still seen.
    case error(String)
    case integer(Int64)
    case array([RedisReply])
    /// A nil bulk string or nil array (`XREAD` that timed out, `GET` of a missing key).
    case null

    /// Copies hiredis's reply tree (the caller frees it).
    init(copying reply: UnsafePointer<redisReply>) {
        let r = reply.pointee
        switch r.type {
        case REDIS_REPLY_STRING:
            self = .string(Self.bytes(r.str, r.len))
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(r.str, r.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(r.str, r.len), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(r.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(r.elements)
            for i in 0..<r.elements {
                if let element = r.element[i] { elements.append(RedisReply(copying: element)) } else { elements.append(.null) }
            }
            self = .array(elements)
        default:
            self = .null
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// The error message when this is an error reply.
    public var errorMessage: String? {
        if case .error(let message) = self { return message }
        return nil
    }

    /// A bulk or status string's text.
    public var text: String? {
        switch self {
        case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let text): return text
        default: return nil
        }
    }

    /// The elements of an array reply (nil for anything else).
    public var elements: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
