import Diagnostics

extension FeedSocket.Unavailable: ExitStatusProviding {
    /// 69: the daemon cannot be reached.
    public var exitStatus: ExitStatus { .unavailable }
}

extension FeedSocket.UntrustedPeer: ExitStatusProviding {
    /// 69: the process at the socket is not a daemon to trust.
    public var exitStatus: ExitStatus { .unavailable }
}
