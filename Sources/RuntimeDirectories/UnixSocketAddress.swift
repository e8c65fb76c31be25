#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Unix-domain socket address (`sockaddr_un`) for `bind`, `connect` and `sendto`:
/// a path, or (where allowed) an abstract name written with a leading `@`, as
/// systemd's `$NOTIFY_SOCKET` does.
public struct UnixSocketAddress: Sendable {
    private var address = sockaddr_un()
    /// The length to pass with the address.
    public let length: socklen_t

    /// The most bytes a path may have (the NUL terminator needs the last one).
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The address of `path`; nil when it is empty or longer than `maxPathBytes`.
    /// With `allowsAbstract`, a path starting with `@` names an abstract socket.
    public init?(path: String, allowsAbstract: Bool = false) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxPathBytes else { return nil }
        let abstract = allowsAbstract && bytes[0] == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        // An abstract name is exactly its bytes; a path ends at its NUL.
        length = abstract ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
                          : socklen_t(MemoryLayout<sockaddr_un>.size)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        try withUnsafePointer(to: address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
