import Foundation
import Agenda
import Feed
import ICalendar
import Support

/// `eventd` options (SPEC.md section 5), parsed the swift-argument-parser way.
enum EventdOptions {
    enum Outcome {
        case run(DaemonConfiguration)
        case help
        case version
        case failure(UsageError)
    }

    static let help = """
    OVERVIEW: Keep calendar snapshots current and stream their diffs to subscribers.

    eventd recomputes every subscribed view on a timer, at each view's local midnight
    and at once on {"op":"refresh"}, and writes NDJSON diffs to a Unix socket.

    USAGE: eventd [--db PATH] [--socket PATH] [--interval SECONDS] [--tz ZONE]
                  [--heartbeat SECONDS] [--history N] [--max-clients N]
                  [--client-buffer BYTES] [--stall-timeout SECONDS]
                  [--socket-mode MODE] [--log-level LEVEL]

    OPTIONS:
      --db PATH                 Database (default: $EVENTD_DB, $STATE_DIRECTORY/events.db,
                                $XDG_STATE_HOME/eventd/events.db, ~/.local/state/eventd/events.db).
      --socket PATH             Socket (default: $EVENTD_SOCKET, $RUNTIME_DIRECTORY/feed.sock,
                                $XDG_RUNTIME_DIR/eventd/feed.sock, /tmp/eventd-$UID/feed.sock).
      --interval SECONDS        Recompute timer (default: 60).
      --tz ZONE                 Default view time zone (default: the system's).
      --heartbeat SECONDS       Heartbeat to idle subscribers (default: 30).
      --history N               Diffs kept per view for resume (default: 256).
      --max-clients N           Connections at once (default: 1024).
      --client-buffer BYTES     Output queued per subscriber before resync (default: 8388608).
      --stall-timeout SECONDS   Disconnect a subscriber that reads nothing this long (default: 60).
      --socket-mode MODE        Octal mode of the socket file (default: 0660).
      --log-level LEVEL         debug, info, notice, warning or error (default: info).
      --version                 Show the version.
      -h, --help                Show help information.

    EXAMPLES:
      eventd
      eventd --db /var/lib/eventd/events.db --socket /run/eventd/feed.sock --interval 30
      eventctl subscribe --format pretty      # watch the feed
    """

    static func parse(_ arguments: [String], environment: [String: String]) -> Outcome {
        var scanner = ArgumentScanner(arguments, command: "eventd")
        var db: String?, socket: String?, tz: String?
        var values: [String: Double] = [:]
        var ints: [String: Int] = [:]
        var logLevel = LogLevel.info
        var mode: UInt16 = 0o660
        do {
            while let token = scanner.next() {
                switch token {
                case .option("-h", _), .option("--help", _): return .help
                case .option("--version", _): return .version
                case .option("--db", let v): db = try scanner.value(for: "--db", inline: v)
                case .option("--socket", let v): socket = try scanner.value(for: "--socket", inline: v)
                case .option("--tz", let v): tz = try scanner.value(for: "--tz", inline: v)
                case .option(let name, let v) where ["--interval", "--heartbeat", "--stall-timeout"].contains(name):
                    let text = try scanner.value(for: name, inline: v)
                    guard let n = Double(text), n > 0, n <= 86_400 else {
                        throw UsageError("invalid value '\(text)' for \(name): expected seconds, more than 0", hint: "see 'eventd --help'")
                    }
                    values[name] = n
                case .option("--history", let v): ints["--history"] = try scanner.int(for: "--history", inline: v, in: 0...100_000)
                case .option("--max-clients", let v): ints["--max-clients"] = try scanner.int(for: "--max-clients", inline: v, in: 1...65_536)
                case .option("--client-buffer", let v):
                    ints["--client-buffer"] = try scanner.int(for: "--client-buffer", inline: v, in: 4096...(1 << 30))
                case .option("--socket-mode", let v):
                    let text = try scanner.value(for: "--socket-mode", inline: v)
                    guard let m = UInt16(text, radix: 8), m <= 0o777 else {
                        throw UsageError("invalid value '\(text)' for --socket-mode: expected an octal mode such as 0660")
                    }
                    guard m & 0o002 == 0 else {
                        throw UsageError("--socket-mode \(text) would make the socket world-writable; use 0660 or stricter")
                    }
                    mode = m
                case .option("--log-level", let v):
                    let text = try scanner.value(for: "--log-level", inline: v)
                    guard let level = LogLevel(name: text) else {
                        throw UsageError("invalid value '\(text)' for --log-level: expected debug, info, notice, warning or error")
                    }
                    logLevel = level
                case .option(let name, _): throw scanner.unknown(name)
                case .positional(let p): throw UsageError("unexpected argument '\(p)'", hint: "see 'eventd --help'")
                }
            }
        } catch let error as UsageError {
            return .failure(error)
        } catch {
            return .failure(UsageError("\(error)"))
        }
        let zone = tz ?? AgendaClock.systemZoneName(environment: environment)
        guard Zone.system(zone) != nil else { return .failure(UsageError("unknown time zone '\(zone)' for --tz")) }
        let paths = RuntimePaths.resolve(database: db, socket: socket, environment: environment, uid: getuid())
        var config = DaemonConfiguration(databasePath: paths.database, socketPath: paths.socket, timeZone: zone)
        if let v = values["--interval"] { config.interval = v }
        if let v = values["--heartbeat"] { config.heartbeat = v }
        if let v = values["--stall-timeout"] { config.stallTimeout = v }
        if let v = ints["--history"] { config.history = v }
        if let v = ints["--max-clients"] { config.maxClients = v }
        if let v = ints["--client-buffer"] { config.clientBuffer = v }
        config.socketMode = mode
        config.logLevel = logLevel
        if let grace = environment["EVENTD_VIEW_GRACE"].flatMap(Double.init) { config.viewGrace = grace }
        return .run(config)
    }
}
