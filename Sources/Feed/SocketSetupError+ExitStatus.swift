import Diagnostics

extension SocketSetupError: ExitStatusProviding {
    /// 69: the daemon cannot offer its socket.
    public var exitStatus: ExitStatus { .unavailable }
}
