import Foundation
import CommandLineKit
import FeedClientKit
import FeedProtocol

/// The running daemon, as `eventctl source` asks it: `sync` (wait for `synced`) and
/// `status` (the sources' live state). Each returns nil when no daemon listens.
enum SourceDaemon {
    /// Longest wait for a `synced` answer: four fetches at once, each at most 60 s.
    static let syncTimeout: Duration = .seconds(300)

    /// Asks the daemon to synchronise `names` (all when empty); the per-source objects
    /// of its `synced` answer, or nil when no daemon listens.
    static func sync(_ env: CommandEnvironment, names: [String]) throws -> [SyncOutcome]? {
        let socketPath = env.paths.socket
        // Nothing listens: nil (synced in-process); a socket not to be trusted: 69.
        guard let socket = try connect(env) else { return nil }
        do {
            switch try DaemonConnection.answer(to: .sync(sources: names), on: socket, timeout: syncTimeout) {
            case .synced(let sources)?: return sources
            case .error(let error)?: throw CommandFailure.daemonUnavailable("the daemon refused the sync: \(error.message)")
            case let other?: throw CommandFailure.daemonUnavailable("the daemon answered the sync with \(other.type)")
            case nil: break
            }
            throw CommandFailure.daemonUnavailable("the daemon at \(socketPath) closed the connection during the sync")
        } catch let e as FeedSocket.Unavailable {
            throw CommandFailure.daemonUnavailable(DaemonHint.unavailable(socketPath, e.description))
        }
    }

    /// The `sources` of the daemon's `status` answer, or nil when none answers.
    static func statuses(_ env: CommandEnvironment) -> [FeedStatus.Source]? {
        let socket: FeedSocket
        do {
            guard let connected = try connect(env) else { return nil }
            socket = connected
        } catch {
            // A socket not to be trusted: the list is the database's, and says why.
            printError("warning: not asking the daemon for the sources' live state: \(error)")
            return nil
        }
        guard let answer = try? DaemonConnection.answer(to: .status, on: socket, timeout: .seconds(2)),
              let status = FeedStatus(answer) else { return nil }
        return status.sources
    }

    /// The daemon's socket, checked as every eventctl connection is (`DaemonConnection`);
    /// nil when nothing listens.
    private static func connect(_ env: CommandEnvironment) throws -> FeedSocket? {
        do {
            return try DaemonConnection.open(env)
        } catch is FeedSocket.Unavailable {
            return nil
        }
    }
}
