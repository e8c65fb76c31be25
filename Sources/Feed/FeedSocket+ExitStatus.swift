import Diagnostics

// Kept apart from FeedSocket.swift: these types are moving to the protocol module, and
// the conformances move with them as they are.
extension FeedSocket.Unavailable: ExitStatusProviding {
    /// 69: the daemon cannot be reached.
    public var exitStatus: ExitStatus { .unavailable }
}

extension FeedSocket.UntrustedPeer: ExitStatusProviding {
    /// 69: the process at the socket is not a daemon to trust.
    public var exitStatus: ExitStatus { .unavailable }
}
