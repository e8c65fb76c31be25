/// Where eventd-web listens: `127.0.0.1:8787`, `[::1]:8787`, `HOST:PORT` for another
/// address (only with a token), or `unix:PATH`.
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    case inet(host: String, port: UInt16)
    case inet6(host: String, port: UInt16)
    case unix(path: String)

    /// The default: the IPv4 loopback, port 8787.
    public static let defaultAddress = ListenAddress.inet(host: "127.0.0.1", port: 8787)

    /// Parses `--listen`; nil when malformed.
    public init?(_ text: String) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard path.hasPrefix("/"), !path.contains("\0") else { return nil }
            self = .unix(path: path)
        } else if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()), port > 0, !host.isEmpty else { return nil }
            self = .inet6(host: host, port: port)
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let port = UInt16(parts[1]), port > 0,
                  parts[0].split(separator: ".").count == 4, parts[0].allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
            self = .inet(host: String(parts[0]), port: port)
        }
    }

    /// Whether it is a TCP address (not a Unix socket).
    public var isTCP: Bool {
        if case .unix = self { return false }
        return true
    }

    /// Whether only this machine can connect (loopback addresses, Unix sockets).
    public var isLocalOnly: Bool {
        switch self {
        case .inet(let host, _): return host.hasPrefix("127.")
        case .inet6(let host, _): return host == "::1"
        case .unix: return true
        }
    }

    /// The `Host` header values that name this address (a browser sends `HOST:PORT`).
    public var hostNames: [String] {
        switch self {
        case .inet(let host, let port):
            var names = ["\(host):\(port)"]
            if host.hasPrefix("127.") { names.append("localhost:\(port)") }
            return names
        case .inet6(let host, let port):
            var names = ["[\(host)]:\(port)"]
            if host == "::1" { names.append("localhost:\(port)") }
            return names
        case .unix: return ["localhost"]
        }
    }

    /// The dashboard's address, as `make run` and the log print it.
    public var url: String {
        switch self {
        case .inet, .inet6: return "http://\(hostNames[0])/"
        case .unix(let path): return "unix:\(path) (behind a reverse proxy)"
        }
    }

    /// The address as `--listen` takes it.
    public var description: String {
        switch self {
        case .inet(let host, let port): return "\(host):\(port)"
        case .inet6(let host, let port): return "[\(host)]:\(port)"
        case .unix(let path): return "unix:\(path)"
        }
    }
}
