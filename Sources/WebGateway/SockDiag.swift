import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// One `NETLINK_SOCK_DIAG` socket, closed with it: asks the kernel for the one TCP
/// socket of a 4-tuple (`SOCK_DIAG_BY_FAMILY` without `NLM_F_DUMP`, an exact hash lookup),
/// for its owner's uid. A few microseconds, whatever the number of sockets, where
/// reading `/proc/net/tcp` costs a line per socket on the machine.
final class SockDiag {
    private let fd: Int32

    /// Nil when the socket cannot be made (no netlink: a sandbox's address families).
    init?() {
        fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), eventd_netlink_sock_diag)
        guard fd >= 0 else { return nil }
        // The kernel answers at once; a bound keeps the event loop from ever waiting long.
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The uid owning the TCP socket whose local end is `local` and remote end `remote`
    /// (addresses in network order, 4 or 16 bytes, of `family`); nil when none is found.
    func uid(family: Int32, local: PeerAccount.Endpoint, remote: PeerAccount.Endpoint) -> UInt32? {
        var request = inet_diag_req_v2()
        request.sdiag_family = UInt8(family)
        request.sdiag_protocol = UInt8(IPPROTO_TCP)
        request.idiag_states = ~0
        request.id.idiag_sport = local.port.bigEndian
        request.id.idiag_dport = remote.port.bigEndian
        Self.set(&request.id.idiag_src, family == AF_INET ? Array(local.address.suffix(4)) : local.address)
        Self.set(&request.id.idiag_dst, family == AF_INET ? Array(remote.address.suffix(4)) : remote.address)
        request.id.idiag_cookie = (eventd_inet_diag_nocookie, eventd_inet_diag_nocookie)
        var header = nlmsghdr()
        header.nlmsg_len = UInt32(MemoryLayout<nlmsghdr>.size + MemoryLayout<inet_diag_req_v2>.size)
        header.nlmsg_type = UInt16(eventd_sock_diag_by_family)
        header.nlmsg_flags = UInt16(eventd_nlm_f_request)
        header.nlmsg_seq = 1
        var message = withUnsafeBytes(of: header) { Array($0) }
        withUnsafeBytes(of: request) { message.append(contentsOf: $0) }
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        let sent = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &kernel) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
                }
            }
        }
        guard sent == message.count else { return nil }
        var reply = [UInt8](repeating: 0, count: 8192)
        var received = 0
        repeat {
            received = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        } while received < 0 && errno == EINTR
        let headerSize = MemoryLayout<nlmsghdr>.size
        guard received >= headerSize + MemoryLayout<inet_diag_msg>.size else { return nil }
        return reply.withUnsafeBytes { raw -> UInt32? in
            let answer = raw.loadUnaligned(as: nlmsghdr.self)
            guard Int32(answer.nlmsg_type) == eventd_sock_diag_by_family else { return nil } // NLMSG_ERROR: no such socket
            return raw.loadUnaligned(fromByteOffset: headerSize, as: inet_diag_msg.self).idiag_uid
        }
    }

    /// Copies `bytes` (network order) into a `__be32[4]` address field.
    private static func set(_ field: inout (UInt32, UInt32, UInt32, UInt32), _ bytes: [UInt8]) {
        var padded = bytes + [UInt8](repeating: 0, count: max(0, 16 - bytes.count))
        padded = Array(padded.prefix(16))
        withUnsafeMutableBytes(of: &field) { $0.copyBytes(from: padded) }
    }
}
