import Foundation
import Agenda
import CommandLineKit
import Feed
import ICalendar
import Diagnostics
import RuntimeDirectories

/// `eventd` options (docs/data-model.md), declared once (CommandLineKit).
enum EventdOptions {
    static let database = Option.value(
        "--db", "PATH", help: "Database (default: \(PathDefaults.databaseHelp)).",
        details: PathDefaults.firstApplies + " It is created (mode 0600) if missing.", completion: .file())
    static let socket = Option.value(
        "--socket", "PATH", help: "Socket (default: \(PathDefaults.socketHelp)).",
        details: PathDefaults.firstApplies + " Ignored when systemd passes the socket.", completion: .file())
    static let interval = Option.value("--interval", "SECONDS", as: Double.self, help: "Recompute timer (default: 60).",
                                       validation: .seconds(max: 86_400))
    static let tz = Option.value("--tz", "ZONE", help: "Default view time zone (default: the system's).",
                                 details: "An IANA name such as Europe/Berlin; the system's comes from TZ or /etc/localtime.",
                                 completion: .timeZone)
    static let heartbeat = Option.value("--heartbeat", "SECONDS", as: Double.self, help: "Heartbeat to idle subscribers (default: 30).",
                                        validation: .seconds(max: 86_400))
    static let history = Option.value("--history", "N", as: Int.self, help: "Diffs kept per view for resume (default: 256).",
                                      validation: .integer(0...100_000))
    static let historyBytes = Option.value(
        "--history-bytes", "BYTES", as: Int.self, help: "Diff bytes kept for resume across all views (default: 67108864).",
        details: "The oldest diffs of any view go first; a view also keeps no more than the size of its snapshot.",
        validation: .integer(0...(1 << 40)))
    static let maxViewItems = Option.value(
        "--max-view-items", "N", as: Int.self, help: "Items all views may hold together (default: 250000).",
        details: "Views nobody watches go first; then a new view that does not fit is refused with an invalid_view error.",
        validation: .integer(1...100_000_000))
    static let maxClients = Option.value("--max-clients", "N", as: Int.self, help: "Connections at once (default: 1024).",
                                         details: "More are refused with an overloaded error.", validation: .integer(1...65_536))
    static let clientBuffer = Option.value(
        "--client-buffer", "BYTES", as: Int.self, help: "Output queued per subscriber before resync (default: 8388608).",
        details: "A subscriber that falls this far behind is resynchronised.", validation: .integer(4096...(1 << 30)))
    static let stallTimeout = Option.value(
        "--stall-timeout", "SECONDS", as: Double.self, help: "Disconnect a subscriber that reads nothing this long (default: 60).",
        validation: .seconds(max: 86_400))
    static let socketMode = Option.value(
        "--socket-mode", "MODE", help: "Octal mode of the socket file (default: 0660).",
        details: "A world-writable mode is refused. Under socket activation the .socket unit's SocketMode= applies instead.",
        validation: .custom(socketModeProblem))
    static let logLevel = Option.logLevel

    static let spec = CommandSpec(
        "eventd", abstract: "Keep calendar snapshots current and stream their diffs to subscribers.",
        overview: "Keep calendar snapshots current and stream their diffs to subscribers.",
        discussion: """
        eventd recomputes every subscribed view on a timer, at each view's local midnight
        and at once on {"op":"refresh"}, and writes NDJSON diffs to a Unix socket.
        """,
        options: [database, socket, interval, tz, heartbeat, history, historyBytes, maxViewItems, maxClients, clientBuffer,
                  stallTimeout, socketMode] + PublishOptions.all + [logLevel, Option.version],
        examples: [
            "eventd",
            "eventd --db /var/lib/eventd/events.db --socket /run/eventd/feed.sock --interval 30",
            "eventctl subscribe --format pretty      # watch the feed",
            "eventd --publish redis://eventd@redis.example:6379/0 --redis-password-file /etc/eventd/redis-password --publish-view 'days=7'",
        ])

    /// Why `text` is not an acceptable `--socket-mode`, or nil.
    @Sendable static func socketModeProblem(_ text: String) -> String? {
        guard let mode = UInt16(text, radix: 8), mode <= 0o777 else {
            return "invalid value '\(text)' for --socket-mode: expected an octal mode such as 0660"
        }
        guard mode & 0o002 == 0 else {
            return "--socket-mode \(text) would make the socket world-writable; use 0660 or stricter"
        }
        return nil
    }

    /// The daemon's configuration from checked arguments and the environment.
    static func configuration(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) -> DaemonConfiguration {
        let zone = arguments[Self.tz] ?? AgendaClock.systemZoneName(environment: environment)
        guard Zone.system(zone) != nil else { throw UsageError("unknown time zone '\(zone)' for --tz") }
        let paths = RuntimePaths.resolve(database: arguments[Self.database], socket: arguments[Self.socket],
                                         environment: environment, uid: getuid())
        var config = DaemonConfiguration(databasePath: paths.database, socketPath: paths.socket, timeZone: zone)
        config.timeZoneFollowsSystem = arguments[Self.tz] == nil
        config.socketDirectoryPolicy = paths.socketDirectoryPolicy(uid: getuid())
        config.databaseDirectoryPolicy = paths.databaseDirectoryPolicy(uid: getuid())
        if let v = arguments[Self.interval] { config.interval = .seconds(v) }
        if let v = arguments[Self.heartbeat] { config.heartbeat = .seconds(v) }
        if let v = arguments[Self.stallTimeout] { config.stallTimeout = .seconds(v) }
        if let v = arguments[Self.history] { config.history = v }
        if let v = arguments[Self.historyBytes] { config.historyBytes = v }
        if let v = arguments[Self.maxViewItems] { config.maxViewItems = v }
        if let v = arguments[Self.maxClients] { config.maxClients = v }
        if let v = arguments[Self.clientBuffer] { config.clientBuffer = v }
        if let text = arguments[Self.socketMode], let mode = UInt16(text, radix: 8) { config.socketMode = mode }
        if let level = arguments[Self.logLevel] { config.logLevel = level }
        if let grace = environment["EVENTD_VIEW_GRACE"].flatMap(Double.init) { config.viewGrace = .seconds(grace) }
        return config
    }
}
