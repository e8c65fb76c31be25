import Foundation
import RuntimeDirectories
import Testing
import TestSupport
import WebGateway
#if canImport(Glibc)
import Glibc
#endif

/// The gateway's one way to eventd's socket checks what eventctl checks: the socket's
/// directory, and who listens (`SO_PEERCRED`), on a real socket.
@Suite struct FeedConnectorTests {
    /// A listening socket in a fresh 0700 directory; returns (directory, path, fd).
    static func listener() throws -> (String, String, Int32) {
        let directory = try makeTemporaryDirectory("connector")
        let path = directory + "/feed.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let address = try #require(UnixSocketAddress(path: path))
        try #require(address.withSockaddr { bind(fd, $0, $1) } == 0 && listen(fd, 8) == 0)
        return (directory, path, fd)
    }

    @Test func aListenerOfAnotherUidIsRefused() throws {
        let (directory, path, fd) = try Self.listener()
        defer { close(fd); try? FileManager.default.removeItem(atPath: directory) }
        let me = getuid()
        let trusted = FeedConnector(path: path, directoryPolicy: .privateTo(uid: me), trustedPeers: [me])
        let connected = try trusted.connect()
        close(connected)
        let stranger = me == 0 ? 4242 : 0
        #expect(throws: FeedConnector.Unavailable.self) {
            try FeedConnector(path: path, directoryPolicy: .privateTo(uid: me), trustedPeers: [UInt32(stranger)]).connect()
        }
    }

    @Test func anOpenDirectoryIsRefusedBeforeConnecting() throws {
        let (directory, path, fd) = try Self.listener()
        defer { close(fd); try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o777)
        do {
            _ = try FeedConnector(path: path, directoryPolicy: .privateTo(uid: getuid()), trustedPeers: [getuid()]).connect()
            Issue.record("connected through a world-writable directory")
        } catch {
            #expect(error.description.contains("mode 0777"), "\(error)")
        }
    }
}
