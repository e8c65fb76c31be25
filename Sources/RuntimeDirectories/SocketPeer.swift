#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a connected Unix socket.
public enum SocketPeer {
    /// The uid of the process at the other end (`SO_PEERCRED`: for a listening socket,
    /// whoever called `listen`; for one systemd listens on, systemd), or nil with errno set.
    public static func uid(_ fd: Int32) -> UInt32? {
        // `struct ucred` needs _GNU_SOURCE, which Swift's Glibc module is built without;
        // this is the kernel's layout of it.
        struct Credentials { var pid: Int32 = 0; var uid: UInt32 = 0; var gid: UInt32 = 0 }
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }
}
