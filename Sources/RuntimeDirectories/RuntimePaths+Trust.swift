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
