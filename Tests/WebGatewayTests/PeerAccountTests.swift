import Foundation
import Testing
@testable import WebGateway
#if canImport(Glibc)
import Glibc
#endif

/// Issue 52, point 4: on loopback, eventd-web answers only its own account (and root,
/// and those `--allow-user`/`--allow-group` name), found from the kernel's socket tables.
@Suite struct PeerAccountTests {
    /// `/proc/net/tcp` as the kernel writes it (little-endian words): a listener on
    /// 127.0.0.1:8787, a browser's socket 127.0.0.1:40000 -> 8787 owned by uid 1001, and
    /// eventd-web's accepted end 8787 -> 40000 owned by 0.
    static let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:2253 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1074 1 0 100 0 0 10 0
           1: 0100007F:9C40 0100007F:2253 01 00000000:00000000 00:00000000 00000000  1001        0 2201 1 0 20 4 30 10 -1
           2: 0100007F:2253 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2202 1 0 20 4 30 10 -1
        """
    /// `/proc/net/tcp6`: [::1]:41000 -> [::1]:8787 owned by 1002, and a v4-mapped
    /// ::ffff:127.0.0.1:42000 -> 127.0.0.1:8787 owned by 1003.
    static let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:A028 00000000000000000000000001000000:2253 01 00000000:00000000 00:00000000 00000000  1002        0 3301 1 0 20 4 30 10 -1
           1: 0000000000000000FFFF00000100007F:A410 0000000000000000FFFF00000100007F:2253 01 00000000:00000000 00:00000000 00000000  1003        0 3302 1 0 20 4 30 10 -1
        """

    static func v4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ port: UInt16) -> PeerAccount.Endpoint {
        PeerAccount.Endpoint(address: [a, b, c, d], port: port)!
    }

    static let loopback6 = [UInt8](repeating: 0, count: 15) + [1]

    @Test(.enabled(if: 1.littleEndian == 1, "the tables are written in the host's byte order"))
    func findsTheOwnerOfThePeersSocket() {
        let server = Self.v4(127, 0, 0, 1, 8787)
        #expect(PeerAccount.uid(in: Self.tcp, peer: Self.v4(127, 0, 0, 1, 40000), server: server) == 1001)
        // The server's own end is never taken for the peer's.
        #expect(PeerAccount.uid(in: Self.tcp, peer: server, server: Self.v4(127, 0, 0, 1, 40000)) == 0)
        #expect(PeerAccount.uid(in: Self.tcp, peer: Self.v4(127, 0, 0, 1, 40001), server: server) == nil)
        #expect(PeerAccount.uid(in: Self.tcp, peer: Self.v4(127, 0, 0, 2, 40000), server: server) == nil)
        let six = PeerAccount.Endpoint(address: Self.loopback6, port: 41000)!
        #expect(PeerAccount.uid(in: Self.tcp6, peer: six, server: PeerAccount.Endpoint(address: Self.loopback6, port: 8787)!) == 1002)
        // An IPv4 connection seen from an IPv4 socket matches a v4-mapped line.
        #expect(PeerAccount.uid(in: Self.tcp6, peer: Self.v4(127, 0, 0, 1, 42000), server: server) == 1003)
        #expect(PeerAccount.uid(in: "garbage\n0: zz:zz yy:yy 01 0 0 0 12", peer: server, server: server) == nil)
    }

    /// A real connection on this machine: the owner of our own client socket is us.
    @Test func findsItsOwnAccountForARealConnection() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0)
            }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try #require(connect(client, $0, length) == 0) }
        }
        let accepted = accept(listener, nil, nil)
        try #require(accepted >= 0)
        defer { close(accepted) }
        #expect(PeerAccount.uid(ofPeerOf: accepted) == geteuid())
        #expect(PeerAccount.uid(ofPeerOf: accepted, netlink: false) == geteuid(), "from /proc/net/tcp")
        // A table without the line: not found.
        #expect(PeerAccount.uid(ofPeerOf: accepted, tables: ["/dev/null"], netlink: false) == nil)
        // Our own accepted end is not a peer's: its 4-tuple reversed names the client's.
        #expect(PeerAccount.uid(ofPeerOf: client) == geteuid())
    }

    @Test func thePolicyAnswersItsAccountsAndGroupsOnly() {
        let policy = PeerPolicy(uids: [1000, 0])
        #expect(policy.refusal(uid: 1000, groups: { _ in [] }) == nil)
        #expect(policy.refusal(uid: 0, groups: { _ in [] }) == nil)
        #expect(policy.refusal(uid: 1001, groups: { _ in [1001] })?.contains("only its own account") == true)
        #expect(policy.refusal(uid: nil, groups: { _ in [] }) != nil)
        let system = PeerPolicy(uids: [61000, 0], gids: [120])
        #expect(system.refusal(uid: 1001, groups: { $0 == 1001 ? [1001, 120] : [] }) == nil)
        #expect(system.refusal(uid: 1002, groups: { _ in [1002, 100] }) != nil)
    }

    /// The gateway answers 403 to every request of a refused connection, token or not.
    @Test func aRefusedAccountGets403WhateverItSends() {
        let token = "0123456789abcdef0123"
        var h = GatewayHarness(token: token)
        for target in ["/", "/api/snapshot?days=1", "/api/events", "/healthz"] {
            let id = h.nextID
            h.nextID += 1
            h.handle(.browserAccepted(id, peer: "127.0.0.1", refusal: "this dashboard answers only its own account"))
            h.send("GET \(target) HTTP/1.1\r\nHost: \(GatewayHarness.host)\r\nAuthorization: Bearer \(token)\r\n\r\n", from: id)
            #expect(h.status(id) == 403, "\(target)")
            #expect(h.output(id).contains("only its own account"))
        }
        // The same request from an account that may ask.
        #expect(h.status(h.request("/healthz", headers: ["Authorization: Bearer \(token)"])) != 403)
    }
}
