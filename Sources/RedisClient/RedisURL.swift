/// Where a Redis server is: `redis://[USER@]HOST[:PORT][/DB]`.
///
/// The password is never part of it: a URL ends up in command lines, unit files and log
/// lines, so `USER:PASSWORD@` is refused and the password comes from a file
/// (`RedisPassword`).
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// The ACL user (`AUTH USER PASSWORD`), or nil for the default user (`AUTH PASSWORD`).
    public var user: String?
    /// A host name, an IPv4 address or an IPv6 address (without its brackets).
    public var host: String
    /// The TCP port, 6379 by default.
    public var port: Int
    /// The logical database (`SELECT`), 0 by default.
    public var database: Int

    /// Redis's own default port.
    public static let defaultPort = 6379

    /// Creates a location from its parts.
    public init(user: String? = nil, host: String, port: Int = RedisURL.defaultPort, database: Int = 0) {
        self.user = user
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses `redis://[USER@]HOST[:PORT][/DB]`.
    public init(parsing text: String) throws(RedisURLError) {
        let scheme = "redis://"
        guard text.hasPrefix(scheme) else { throw .notRedisScheme }
        var rest = Substring(text.dropFirst(scheme.count))
        guard rest.allSatisfy({ $0.isASCII && !$0.isWhitespace }), !rest.contains("?"), !rest.contains("#") else {
            throw .malformed("only redis://[USER@]HOST[:PORT][/DB] is understood")
        }
        if let at = rest.lastIndex(of: "@") {
            let userPart = rest[..<at]
            if userPart.contains(":") { throw .passwordInURL }
            guard !userPart.isEmpty else { throw .malformed("empty user name before @") }
            user = String(userPart)
            rest = rest[rest.index(after: at)...]
        } else {
            user = nil
        }
        var hostPort = rest
        database = 0
        if let slash = rest.firstIndex(of: "/") {
            hostPort = rest[..<slash]
            let db = rest[rest.index(after: slash)...]
            if !db.isEmpty {
                guard db.allSatisfy(\.isNumber), let number = Int(db), number <= 1_000_000 else {
                    throw .malformed("the database is a number: /\(db)")
                }
                database = number
            }
        }
        let portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .malformed("unclosed [ in the host") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if after.isEmpty {
                portText = nil
            } else {
                guard after.hasPrefix(":") else { throw .malformed("expected :PORT after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.firstIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = String(hostPort)
            portText = nil
        }
        guard !host.isEmpty else { throw .malformed("no host") }
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isNumber), let number = Int(portText), (1...65535).contains(number) else {
                throw .malformed("the port is a number from 1 to 65535: \(portText)")
            }
            port = number
        } else {
            port = Self.defaultPort
        }
    }

    /// The URL in its canonical spelling (never with a password: it has none).
    public var description: String {
        var text = "redis://"
        if let user { text += user + "@" }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)/\(database)"
        return text
    }
}

/// A `redis://` URL that cannot be used.
public enum RedisURLError: Error, Equatable, CustomStringConvertible {
    case notRedisScheme
    case passwordInURL
    case malformed(String)

    public var description: String {
        switch self {
        case .notRedisScheme: return "a Redis URL starts with redis:// (redis://[USER@]HOST[:PORT][/DB])"
        case .passwordInURL: return "a Redis URL carries no password: put it in a file and name it with --redis-password-file"
        case .malformed(let why): return "bad Redis URL: \(why)"
        }
    }
}
