import Foundation
import Testing
import WebGateway
#if canImport(Glibc)
import Glibc
#endif

/// `GatewayListener.create` for numeric TCP addresses: bound and listening on the
/// address asked for, a bad address refused by name, never looked up.
@Suite struct GatewayListenerTests {
    @Test func numericAddressesAreBoundAsGiven() throws {
        // A host without IPv6 on loopback cannot bind ::1; where lo has it, it must work.
        let loopbackIPv6 = (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?
            .split(separator: "\n").contains { $0.hasPrefix("00000000000000000000000000000001 ") } ?? false
        let addresses: [(ListenAddress, Int32)] = [(.inet(host: "127.0.0.1", port: 0), AF_INET), (.inet6(host: "::1", port: 0), AF_INET6)]
        for (address, family) in addresses {
            let text = address.description
            let fd: Int32
            do { fd = try GatewayListener.create(address) } catch {
                #expect(family == AF_INET6 && !loopbackIPv6, "\(text): \(error)")
                continue
            }
            defer { close(fd) }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            #expect(named == 0)
            #expect(Int32(storage.ss_family) == family, "\(text)")
            var listening: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size)
            #expect(listening == 1, "\(text)")
        }
    }

    @Test func aNameOrABadNumberIsRefusedNotLookedUp() {
        for address: ListenAddress in [.inet(host: "localhost", port: 8787), .inet(host: "127.0.0.256", port: 8787),
                                       .inet6(host: "localhost", port: 8787), .inet6(host: "::g", port: 8787)] {
            #expect(throws: ListenError.self, "\(address)") { _ = try GatewayListener.create(address) }
        }
    }
}
