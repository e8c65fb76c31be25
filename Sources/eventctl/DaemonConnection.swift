import Foundation
import CommandLineKit
import Feed
import RuntimeDirectories

/// eventctl's one way to the daemon. Before it connects it checks the socket's directory
/// by the rules eventd made it with (as tmux and ssh-agent do), and after, that the
/// process listening runs as the user, root, or (under `/run/eventd`) the system
/// service's user (`SO_PEERCRED`): otherwise whoever squatted the directory could answer
/// `status`, feed `subscribe` and hear `import`'s refresh.
enum DaemonConnection {
    /// Connects to the daemon. Throws `FeedSocket.Unavailable` when nothing listens
    /// (callers may wait and retry), and `CommandFailure.daemonUnavailable` when the
    /// socket is not to be trusted (retrying would not help).
    static func open(_ env: CommandEnvironment) throws -> FeedSocket {
        let paths = env.paths
        let uid = getuid()
        do {
            // A missing directory is no daemon: the connect below says so.
            _ = try CheckedDirectory.open(RuntimePaths.directory(of: paths.socket),
                                          policy: paths.socketDirectoryPolicy(uid: uid), create: false)
            return try FeedSocket(path: paths.socket, trustedPeers: paths.trustedPeers(uid: uid))
        } catch let e as UnsafeDirectoryError {
            throw CommandFailure.daemonUnavailable(e.description)
        } catch let e as FeedSocket.UntrustedPeer {
            throw CommandFailure.daemonUnavailable(e.description)
        }
    }
}
