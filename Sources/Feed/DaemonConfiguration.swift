import Foundation
import EventStore
import Diagnostics
import RuntimeDirectories

/// Everything `eventd` is started with (docs/data-model.md).
public struct DaemonConfiguration: Sendable {
    public var databasePath: String
    public var socketPath: String
    /// The rules the socket's directory must meet (`RuntimePaths.socketDirectoryPolicy`).
    public var socketDirectoryPolicy: DirectoryPolicy
    /// The rules the database's directory must meet.
    public var databaseDirectoryPolicy: DirectoryPolicy
    /// Shared by the recompute thread's connection and the live-source runner's: when
    /// the runner may open the file (`DatabaseGate`).
    public let databaseGate = DatabaseGate()
    /// Recompute timer.
    public var interval: Duration = .seconds(60)
    /// The default view zone (IANA).
    public var timeZone: String
    /// Whether `timeZone` is the system's (no `--tz`): it then follows changes of the
    /// system's zone (`/etc/localtime`) for views that name none.
    public var timeZoneFollowsSystem = false
    public var heartbeat: Duration = .seconds(30)
    /// Diffs retained per view for `resume`.
    public var history: Int = 256
    /// Bytes of diffs retained for `resume` across all views; the oldest go first.
    public var historyBytes: Int = 64 << 20
    public var maxClients: Int = 1024
    /// Of `maxClients`, the last this many (a quarter at most) only for eventd's own user
    /// and root: its gateway, its `eventctl`. Another account cannot lock them out.
    public var reservedClients: Int = 64
    /// Bytes queued per subscriber before its diffs are dropped (then resync).
    public var clientBuffer: Int = 8 << 20
    /// How long a subscriber may read nothing while data waits before it is disconnected.
    public var stallTimeout: Duration = .seconds(60)
    public var logLevel: LogLevel = .info
    /// Mode of the socket file.
    public var socketMode: UInt16 = 0o660
    /// How long a view without subscribers is kept (with its history, for resume).
    public var viewGrace: Duration = .seconds(60)
    /// Longest request line, bytes.
    public var maxRequestLine = 64 * 1024
    /// Distinct views at once.
    public var maxViews = 256
    /// Items all views may hold together (`--max-view-items`): a view whose first
    /// snapshot would take the total past it is refused, once idle views have gone.
    public var maxViewItems = 250_000
    /// Refreshes closer together than this are coalesced.
    public var refreshCoalescing: Duration = .milliseconds(100)

    public init(databasePath: String, socketPath: String, timeZone: String) {
        self.databasePath = databasePath
        self.socketPath = socketPath
        self.timeZone = timeZone
        // Paths given explicitly: the user's or root's, writable by no one else.
        socketDirectoryPolicy = .shared(owners: [getuid(), 0])
        databaseDirectoryPolicy = .shared(owners: [getuid(), 0])
    }
}
