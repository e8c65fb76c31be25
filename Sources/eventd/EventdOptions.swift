import Foundation
import Agenda
import CommandLineKit
import Feed
import ICalendar
import Diagnostics
import RuntimeDirectories

/// `eventd` options (SPEC.md section 5), declared once (CommandLineKit).
enum EventdOptions {
    static let spec = CommandSpec(
        "eventd", abstract: "Keep calendar snapshots current and stream their diffs to subscribers.",
        overview: "Keep calendar snapshots current and stream their diffs to subscribers.",
        discussion: """
        eventd recomputes every subscribed view on a timer, at each view's local midnight
        and at once on {"op":"refresh"}, and writes NDJSON diffs to a Unix socket.
        """,
        options: [
            Option("--db", value: "PATH", help: "Database (default: \(PathDefaults.databaseHelp)).", summary: "Database file",
                   completion: .file(), manual: """
                   The database.
                   \(PathDefaults.databaseManual)
                   the first that applies.
                   It is created (mode 0600) if missing.
                   """),
            Option("--socket", value: "PATH", help: "Socket (default: \(PathDefaults.socketHelp)).", summary: "Feed socket",
                   completion: .file(), manual: """
                   The feed socket.
                   \(PathDefaults.socketManual)
                   the first that applies.
                   Ignored when systemd passes the socket.
                   """),
            Option("--interval", value: "SECONDS", help: "Recompute timer (default: 60).", validation: .seconds(max: 86_400)),
            Option("--tz", value: "ZONE", help: "Default view time zone (default: the system's).", completion: .timeZone,
                   manual: #"""
                   Default view time zone, an IANA name such as
                   .B Europe/Berlin
                   (default: the system's, from
                   .B TZ
                   or
                   .IR /etc/localtime ).
                   """#),
            Option("--heartbeat", value: "SECONDS", help: "Heartbeat to idle subscribers (default: 30).",
                   validation: .seconds(max: 86_400)),
            Option("--history", value: "N", help: "Diffs kept per view for resume (default: 256).",
                   validation: .integer(0...100_000)),
            Option("--max-clients", value: "N", help: "Connections at once (default: 1024).",
                   validation: .integer(1...65_536), manual: """
                   Connections at once (default: 1024); more are refused with an
                   .B overloaded
                   error.
                   """),
            Option("--client-buffer", value: "BYTES", help: "Output queued per subscriber before resync (default: 8388608).",
                   validation: .integer(4096...(1 << 30)),
                   manual: "Output queued per subscriber before it is resynchronised (default: 8388608)."),
            Option("--stall-timeout", value: "SECONDS", help: "Disconnect a subscriber that reads nothing this long (default: 60).",
                   validation: .seconds(max: 86_400)),
            Option("--socket-mode", value: "MODE", help: "Octal mode of the socket file (default: 0660).",
                   validation: .custom(socketModeProblem), manual: #"""
                   Octal mode of the socket file that
                   .B eventd
                   creates (default: 0660).
                   A world\-writable mode is refused.
                   Under socket activation the
                   .I .socket
                   unit's
                   .B SocketMode=
                   applies instead.
                   """#),
            Option("--log-level", value: "LEVEL", help: "debug, info, notice, warning or error (default: info).",
                   summary: "Log level", completion: .choices(["debug", "info", "notice", "warning", "error"]),
                   manual: #"""
                   .BR debug ,
                   .BR info ,
                   .BR notice ,
                   .B warning
                   or
                   .B error
                   (default: info).
                   """#),
            .version,
        ],
        examples: [
            "eventd",
            "eventd --db /var/lib/eventd/events.db --socket /run/eventd/feed.sock --interval 30",
            "eventctl subscribe --format pretty      # watch the feed",
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
        let zone = arguments.value("--tz") ?? AgendaClock.systemZoneName(environment: environment)
        guard Zone.system(zone) != nil else { throw UsageError("unknown time zone '\(zone)' for --tz") }
        let paths = RuntimePaths.resolve(database: arguments.value("--db"), socket: arguments.value("--socket"),
                                         environment: environment, uid: getuid())
        var config = DaemonConfiguration(databasePath: paths.database, socketPath: paths.socket, timeZone: zone)
        config.timeZoneFollowsSystem = arguments.value("--tz") == nil
        config.socketDirectoryPolicy = paths.socketDirectoryPolicy(uid: getuid())
        config.databaseDirectoryPolicy = paths.databaseDirectoryPolicy(uid: getuid())
        if let v = arguments.double("--interval") { config.interval = v }
        if let v = arguments.double("--heartbeat") { config.heartbeat = v }
        if let v = arguments.double("--stall-timeout") { config.stallTimeout = v }
        if let v = arguments.int("--history") { config.history = v }
        if let v = arguments.int("--max-clients") { config.maxClients = v }
        if let v = arguments.int("--client-buffer") { config.clientBuffer = v }
        if let text = arguments.value("--socket-mode"), let mode = UInt16(text, radix: 8) { config.socketMode = mode }
        if let level = arguments.value("--log-level").flatMap(LogLevel.init(name:)) { config.logLevel = level }
        if let grace = environment["EVENTD_VIEW_GRACE"].flatMap(Double.init) { config.viewGrace = grace }
        return config
    }
}
