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
