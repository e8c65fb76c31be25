#if canImport(Glibc)
import Glibc
#endif

/// A Redis password, read from a file (or a systemd credential, which is a file under
/// `$CREDENTIALS_DIRECTORY`): never from the command line or the environment, which
/// other users and crash reports can see. Its description is redacted, so that
/// interpolating it into a log line cannot leak it.
public struct RedisPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The password's bytes (binary-safe: sent as one argument of `AUTH`).
    public let bytes: [UInt8]

    /// The longest password file read: a password, not a document.
    public static let maximumLength = 4096

    /// A password from its bytes (tests, and `read(path:)`).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads the file at `path`: its content without one trailing line break.
    public static func read(path: String) throws(RedisPasswordError) -> RedisPassword {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var content: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            content += buffer[0..<n]
            if content.count > maximumLength { throw .tooLong(path: path) }
        }
        if content.last == UInt8(ascii: "\n") { content.removeLast() }
        if content.last == UInt8(ascii: "\r") { content.removeLast() }
        guard !content.isEmpty else { throw .empty(path: path) }
        return RedisPassword(bytes: content)
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// A password file that cannot be used (the messages name the file, never its content).
public enum RedisPasswordError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case empty(path: String)
    case tooLong(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read the Redis password file \(path): \(reason)"
        case .empty(let path): return "the Redis password file \(path) is empty"
        case .tooLong(let path): return "the Redis password file \(path) is longer than \(RedisPassword.maximumLength) bytes"
        }
    }
}
