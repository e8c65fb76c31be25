import Foundation
import CommandLineKit
import Feed
import CanonicalJSON

/// The running daemon, as `eventctl source` asks it: `sync` (wait for `synced`) and
/// `status` (the sources' live state). Each returns nil when no daemon listens.
enum SourceDaemon {
    /// Longest wait for a `synced` answer: four fetches at once, each at most 60 s.
    static let syncTimeout: Double = 300

    /// Asks the daemon to synchronise `names` (all when empty); the per-source objects
    /// of its `synced` answer, or nil when no daemon listens.
    static func sync(_ env: CommandEnvironment, names: [String]) throws -> [JSONValue]? {
        let socketPath = env.paths.socket
        // Nothing listens: nil (synced in-process); a socket not to be trusted: 69.
        guard let socket = try connect(env) else { return nil }
        do {
            _ = try socket.readMessage(timeout: 5)
            try socket.send(.object(["op": .string("sync"), "sources": .array(names.map { .string($0) })]))
            let deadline = Date().addingTimeInterval(syncTimeout)
            while let message = try socket.readMessage(timeout: max(0.1, deadline.timeIntervalSinceNow)) {
                switch message.value["type"]?.stringValue {
                case "synced": return message.value["sources"]?.arrayValue ?? []
                case "error":
                    throw CommandFailure.daemonUnavailable("the daemon refused the sync: \(message.value["message"]?.stringValue ?? "?")")
                default: continue
                }
            }
            throw CommandFailure.daemonUnavailable("the daemon at \(socketPath) closed the connection during the sync")
        } catch let e as FeedSocket.Unavailable {
            throw CommandFailure.daemonUnavailable(DaemonHint.unavailable(socketPath, e.description))
        }
    }

    /// The `sources` of the daemon's `status` answer, or nil when none answers.
    static func statuses(_ env: CommandEnvironment) -> [JSONValue]? {
        let socket: FeedSocket
        do {
            guard let connected = try connect(env) else { return nil }
            socket = connected
        } catch {
            // A socket not to be trusted: the list is the database's, and says why.
            printError("warning: not asking the daemon for the sources' live state: \(error)")
            return nil
        }
        guard (try? socket.readMessage(timeout: 2)) != nil, (try? socket.send(["op": "status"])) != nil,
              let reply = try? socket.readMessage(timeout: 2)?.value, reply["type"]?.stringValue == "status" else { return nil }
        return reply["sources"]?.arrayValue
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
