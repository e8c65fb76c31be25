#if canImport(Glibc)
import Glibc
#endif

/// The local account at the other end of a loopback TCP connection: the owner of the
/// peer's socket (whose local address is our peer's and whose remote address is ours),
/// as the kernel says through sock_diag netlink, else as it lists it in `/proc/net/tcp`
/// and `/proc/net/tcp6`.
///
/// Loopback is not a user boundary: any account may connect to `127.0.0.1:PORT`, and a
/// token can leak (issue 52: another account that held the port while eventd-web was
/// stopped read the token a browser sent it). `PeerPolicy` decides on the uid found.
public enum PeerAccount {
    /// One end of a TCP connection: the address as 16 bytes (IPv4 as `::ffff:a.b.c.d`,
    /// so a v4-mapped IPv6 socket matches too) and the port.
    public struct Endpoint: Hashable, Sendable {
        public var address: [UInt8]
        public var port: UInt16

        /// An endpoint of a 4- or 16-byte address (network order).
        public init?(address: [UInt8], port: UInt16) {
            switch address.count {
            case 4: self.address = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + address
            case 16: self.address = address
            default: return nil
            }
            self.port = port
        }

        /// Whether it is an IPv4 address (`::ffff:a.b.c.d`).
        var isV4Mapped: Bool { address.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] }

        /// `0100007F:1F90` or 32 hex digits and a port, as `/proc/net/tcp{,6}` write them:
        /// the address as 32-bit words in the host's byte order.
        init?(procText text: Substring) {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let port = UInt16(parts[1], radix: 16),
                  parts[0].utf8.count == 8 || parts[0].utf8.count == 32 else { return nil }
            var bytes: [UInt8] = []
            var rest = parts[0]
            while !rest.isEmpty {
                guard let word = UInt32(rest.prefix(8), radix: 16) else { return nil }
                withUnsafeBytes(of: word) { bytes.append(contentsOf: $0) }
                rest = rest.dropFirst(8)
            }
            self.init(address: bytes, port: port)
        }
    }

    /// The uid owning the socket whose local end is `peer` and remote end `server`, in
    /// the text of a `/proc/net/tcp` or `tcp6` table; nil when no line matches.
    public static func uid(in table: String, peer: Endpoint, server: Endpoint) -> UInt32? {
        for line in table.split(separator: "\n").dropFirst() {
            // sl local rem st tx:rx tr:when retrnsmt uid ...
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, Endpoint(procText: fields[1]) == peer, Endpoint(procText: fields[2]) == server else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    /// The uid owning the other end of the connected TCP socket `fd`, when it is a local
    /// socket the kernel knows: asked through sock_diag netlink (`SockDiag`), else read
    /// from `tables`; nil otherwise (not TCP, or not found).
    public static func uid(ofPeerOf fd: Int32, tables: [String] = ["/proc/net/tcp", "/proc/net/tcp6"],
                           netlink: Bool = true) -> UInt32? {
        guard let peer = endpoint(fd, peer: true), let server = endpoint(fd, peer: false) else { return nil }
        if netlink, let diag = SockDiag() {
            let v4 = peer.isV4Mapped && server.isV4Mapped
            return diag.uid(family: v4 ? AF_INET : AF_INET6, local: peer, remote: server)
        }
        for path in tables {
            guard let text = readAll(path) else { continue }
            if let uid = uid(in: text, peer: peer, server: server) { return uid }
        }
        return nil
    }

    /// `getpeername` (or `getsockname`) of `fd` as an endpoint; nil for other families.
    static func endpoint(_ fd: Int32, peer: Bool) -> Endpoint? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
            return Endpoint(address: bytes, port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            return Endpoint(address: bytes, port: UInt16(bigEndian: address.sin6_port))
        default:
            return nil
        }
    }

    /// A `/proc` file whole (its size is not known ahead: read to the end).
    private static func readAll(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
