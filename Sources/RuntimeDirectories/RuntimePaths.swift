/// Where eventctl and eventd find the database and the socket (docs/data-model.md).
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
    /// Where `database` came from.
    public var databaseOrigin: Origin
    /// Where `socket` came from.
    public var socketOrigin: Origin

    /// Where a path came from, which decides the rules its directory must meet
    /// (`RuntimePaths+Trust.swift`).
    public enum Origin: Sendable, Equatable {
        /// An option or `EVENTD_DB`/`EVENTD_SOCKET`: someone chose it.
        case explicit
        /// systemd's `$STATE_DIRECTORY`/`$RUNTIME_DIRECTORY`: the service manager made it.
        case systemd
        /// The per-user default (`$XDG_*`, `~/.local/state`, `/tmp/eventd-$UID`), which
        /// eventd and eventctl make themselves, private to the user.
        case perUser
    }

    /// Paths given explicitly.
    public init(database: String, socket: String, databaseOrigin: Origin = .explicit, socketOrigin: Origin = .explicit) {
        self.database = database
        self.socket = socket
        self.databaseOrigin = databaseOrigin
        self.socketOrigin = socketOrigin
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
        let db: (String, Origin) = database.map { ($0, .explicit) } ?? nonEmpty("EVENTD_DB").map { ($0, .explicit) }
            ?? firstDirectory("STATE_DIRECTORY").map { ($0 + "/events.db", .systemd) }
            ?? nonEmpty("XDG_STATE_HOME").map { ($0 + "/eventd/events.db", .perUser) }
            ?? ((nonEmpty("HOME") ?? "/root") + "/.local/state/eventd/events.db", .perUser)
        let sock: (String, Origin) = socket.map { ($0, .explicit) } ?? nonEmpty("EVENTD_SOCKET").map { ($0, .explicit) }
            ?? firstDirectory("RUNTIME_DIRECTORY").map { ($0 + "/feed.sock", .systemd) }
            ?? nonEmpty("XDG_RUNTIME_DIR").map { ($0 + "/eventd/feed.sock", .perUser) }
            ?? ("/tmp/eventd-\(uid)/feed.sock", .perUser)
        return RuntimePaths(database: db.0, socket: sock.0, databaseOrigin: db.1, socketOrigin: sock.1)
    }
}

/// The rules the socket's and the database's directories must meet, and whom a client
/// may talk to on the socket (docs/data-model.md).
extension RuntimePaths {
    /// Where the system service keeps its socket (`RuntimeDirectory=eventd`).
    public static let systemRuntimeDirectory = "/run/eventd"
    /// The system service's user (`systemd/eventd.sysusers`).
    public static let systemUser = "eventd"

    /// The directory holding `path` ("." when it names none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether the socket is the system service's (under `/run/eventd`).
    public var socketIsSystemService: Bool {
        socket.hasPrefix(Self.systemRuntimeDirectory + "/")
    }

    /// The rules for the socket's directory, for the user `uid`: a per-user default must
    /// be the user's alone; a chosen or systemd-made one must be the user's, root's or
    /// (under `/run/eventd`) the system service's, and writable by no one else.
    public func socketDirectoryPolicy(uid: UInt32, systemUID: UInt32? = UserDatabase.uid(of: systemUser)) -> DirectoryPolicy {
        if socketOrigin == .perUser { return .privateTo(uid: uid) }
        var owners: Set<UInt32> = [uid, 0]
        if socketIsSystemService, let systemUID { owners.insert(systemUID) }
        return .shared(owners: owners)
    }

    /// The rules for the database's directory: as for the socket's, without the system
    /// service's exception (the service's database is its own: it runs as that user).
    public func databaseDirectoryPolicy(uid: UInt32) -> DirectoryPolicy {
        databaseOrigin == .perUser ? .privateTo(uid: uid) : .shared(owners: [uid, 0])
    }

    /// Whom eventctl may talk to on the socket (the peer's uid, `SO_PEERCRED`): the user,
    /// root (which also owns sockets that systemd listens on for eventd), and the system
    /// service's user when the socket is under `/run/eventd`.
    public func trustedPeers(uid: UInt32, systemUID: UInt32? = UserDatabase.uid(of: systemUser)) -> Set<UInt32> {
        var peers: Set<UInt32> = [uid, 0]
        if socketIsSystemService, let systemUID { peers.insert(systemUID) }
        return peers
    }
}
