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

/// One Redis command as its arguments (binary-safe: never a format string, so no
/// argument can be read as part of the command's syntax).
public struct RedisCommand: Sendable, Equatable, CustomStringConvertible {
    /// The command's name and arguments, as sent.
    public var arguments: [[UInt8]]

    /// A command from its words (the name first).
    public init(_ words: [String]) { arguments = words.map { Array($0.utf8) } }

    /// A command from raw arguments.
    public init(arguments: [[UInt8]]) { self.arguments = arguments }

    /// The command's name in capitals: what an error message names (never the arguments,
    /// which may hold a password or a whole snapshot).
    public var name: String { arguments.first.map { String(decoding: $0, as: UTF8.self).uppercased() } ?? "" }

    /// The command with one more argument.
    public func appending(_ word: String) -> RedisCommand { appending(bytes: Array(word.utf8)) }

    /// The command with one more raw argument.
    public func appending(bytes: [UInt8]) -> RedisCommand {
        var copy = self
        copy.arguments.append(bytes)
        return copy
    }

    public var description: String { name }
}

/// A failed Redis operation: what kind of failure, the operation (a command's name, or
/// `connect`), and hiredis's or Redis's own message. Never carries a password: messages
/// come from hiredis (`errstr`) or from Redis's error replies, which do not echo
/// arguments, and operations are command names only.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for a caller's decision (retry, give up, tell the user).
    public enum Kind: String, Sendable, Equatable {
        /// Cannot connect (refused, unresolvable, timed out while connecting).
        case connection
        /// A read or write failed, timed out, or the server closed the connection.
        case io
        /// The server sent something hiredis could not parse.
        case `protocol`
        /// The password was refused, or one is needed.
        case authentication
        /// `SELECT` refused the URL's database number.
        case database
        /// The server answered a command with an error (`-ERR`, `-OOM`, `-NOPERM`, …).
        case reply
        /// The reply had another shape than the command's.
        case unexpectedReply
    }

    public var kind: Kind
    public var operation: String
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, operation: String, message: String) {
        self.kind = kind
        self.operation = operation
        self.message = message
    }

    /// True when the connection is unusable afterwards (hiredis keeps a context's first
    /// error for good): the caller drops it and connects again.
    public var losesConnection: Bool {
        switch kind {
        case .connection, .io, .protocol: return true
        case .authentication, .database, .reply, .unexpectedReply: return false
        }
    }

    public var description: String {
        switch kind {
        case .connection: return "cannot connect to Redis: \(message)"
        case .io: return "Redis connection lost during \(operation): \(message)"
        case .protocol: return "Redis protocol error during \(operation): \(message)"
        case .authentication: return "Redis refused the login: \(message)"
        case .database: return "Redis refused the database: \(message)"
        case .reply: return "Redis answered \(operation) with an error: \(message)"
        case .unexpectedReply: return "Redis answered \(operation) unexpectedly: \(message)"
        }
    }
}
