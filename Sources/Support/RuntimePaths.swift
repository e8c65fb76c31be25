/// Where eventctl and eventd find the database and the socket (SPEC.md section 5).
///
/// In order: `--db`/`--socket`; `EVENTD_DB`/`EVENTD_SOCKET`; systemd's
/// `$STATE_DIRECTORY/events.db` and `$RUNTIME_DIRECTORY/feed.sock`;
/// `$XDG_STATE_HOME/eventd/events.db` (`~/.local/state/eventd/events.db`) and
/// `$XDG_RUNTIME_DIR/eventd/feed.sock` (`/tmp/eventd-$UID/feed.sock`).
public struct RuntimePaths: Sendable, Equatable {
    /// The database file.
    public var database: String
    /// The feed socket.
    public var socket: String

    /// Paths given explicitly.
    public init(database: String, socket: String) {
        self.database = database
        self.socket = socket
    }

    /// Resolves both paths from options and an environment.
    public static func resolve(database: String? = nil, socket: String? = nil,
                               environment: [String: String], uid: UInt32) -> RuntimePaths {
        func nonEmpty(_ key: String) -> String? {
            guard let v = environment[key], !v.isEmpty else { return nil }
            return v
        }
        // systemd may pass several colon-separated directories; the first is ours.
        func firstDirectory(_ key: String) -> String? {
            nonEmpty(key).flatMap { $0.split(separator: ":").first.map(String.init) }
        }
        let db = database ?? nonEmpty("EVENTD_DB")
            ?? firstDirectory("STATE_DIRECTORY").map { $0 + "/events.db" }
            ?? nonEmpty("XDG_STATE_HOME").map { $0 + "/eventd/events.db" }
            ?? (nonEmpty("HOME") ?? "/root") + "/.local/state/eventd/events.db"
        let sock = socket ?? nonEmpty("EVENTD_SOCKET")
            ?? firstDirectory("RUNTIME_DIRECTORY").map { $0 + "/feed.sock" }
            ?? nonEmpty("XDG_RUNTIME_DIR").map { $0 + "/eventd/feed.sock" }
            ?? "/tmp/eventd-\(uid)/feed.sock"
        return RuntimePaths(database: db, socket: sock)
    }
}
