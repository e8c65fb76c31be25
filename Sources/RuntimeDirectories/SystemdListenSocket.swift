#if canImport(Glibc)
import Glibc
#endif

/// A listening socket passed by systemd's socket activation.
public enum SystemdListenSocket {
    /// The stream socket systemd passed (`LISTEN_PID` is us and `LISTEN_FDS` >= 1: it is
    /// descriptor 3, `SD_LISTEN_FDS_START`), made non-blocking and close-on-exec; nil
    /// when none was passed or it is not a stream socket.
    public static func descriptor(environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1 else { return nil }
        let fd: Int32 = 3
        var type: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0, type == Int32(SOCK_STREAM.rawValue) else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }
}
