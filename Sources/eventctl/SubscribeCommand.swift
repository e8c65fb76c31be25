import Foundation
import Agenda
import Feed
import Support

/// `eventctl subscribe [view options] [--resume EPOCH:SEQ] [--format ndjson|pretty]`
struct SubscribeCommand: Subcommand {
    static let name = "subscribe"
    static let abstract = "Follow the live agenda feed."
    static let help = """
    OVERVIEW: Subscribe to a view and follow its changes.

    Keeps a local copy of the view, applies every diff and checks its digest; on a
    mismatch it says so on standard error and subscribes again. When the daemon
    restarts, it reconnects and resumes where it left off.

    USAGE: eventctl subscribe [--from DATE] [--days N] [--past-days N] [--tz ZONE]
                              [--calendar NAME]... [--empty-days omit|placeholder]
                              [--resume EPOCH:SEQ] [--format ndjson|pretty]

    OPTIONS:
    \(ViewOptions.help)
      --resume EPOCH:SEQ        Resume from a state seen before (see the daemon's epoch).
      --format FORMAT           ndjson (default: every message line as received) or pretty.
      -h, --help                Show help information.

    EXAMPLES:
      eventctl subscribe --format pretty
      eventctl subscribe --days 7 --calendar work | jq -c 'select(.type == "diff")'
    """

    enum Format: String { case ndjson, pretty }

    var options = ViewOptions()
    var format = Format.ndjson
    var resume: (epoch: String, seq: Int64)?

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl subscribe")
        while let token = scanner.next() {
            if try options.take(token, &scanner) { continue }
            switch token {
            case .option("--format", let inline):
                let text = try scanner.value(for: "--format", inline: inline)
                guard let f = Format(rawValue: text) else { throw UsageError("invalid value '\(text)' for --format: expected ndjson or pretty") }
                format = f
            case .option("--resume", let inline):
                let text = try scanner.value(for: "--resume", inline: inline)
                let parts = text.split(separator: ":")
                guard parts.count == 2, let seq = Int64(parts[1]) else {
                    throw UsageError("invalid value '\(text)' for --resume: expected EPOCH:SEQ")
                }
                resume = (String(parts[0]), seq)
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p): throw UsageError("unexpected argument '\(p)'", hint: "see 'eventctl subscribe --help'")
            }
        }
    }

    var viewJSON: JSONValue {
        var object: [String: JSONValue] = [:]
        if let tz = options.tz { object["tz"] = .string(tz) }
        if let from = options.from { object["from"] = .string(from.iso) }
        if let days = options.days { object["days"] = .int(Int64(days)) }
        if let past = options.pastDays { object["past_days"] = .int(Int64(past)) }
        if !options.calendars.isEmpty { object["calendars"] = .array(options.calendars.map { .string($0) }) }
        if let e = options.emptyDays { object["empty_days"] = .string(e.rawValue) }
        return .object(object)
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let path = env.paths.socket
        let printer = FeedPrinter(format: format, color: isatty(1) != 0 && (env.environment["NO_COLOR"] ?? "").isEmpty)
        var state: FeedClientState?
        var position = resume
        var everConnected = false
        var backoff = 0.2
        while true {
            let socket: FeedSocket
            do {
                socket = try FeedSocket(path: path)
            } catch let e as FeedSocket.Unavailable {
                if !everConnected { throw CommandFailure(status: .unavailable, message: DaemonHint.unavailable(path, e.description)) }
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 5)
                continue
            }
            everConnected = true
            backoff = 0.2
            var request: [String: JSONValue] = ["op": "subscribe", "view": viewJSON]
            if let position { request["resume"] = ["epoch": .string(position.epoch), "seq": .int(position.seq)] }
            do {
                try socket.send(.object(request))
                while let (raw, message) = try socket.readMessage() {
                    printer.raw(raw)
                    switch message["type"]?.stringValue {
                    case "snapshot":
                        state = try FeedClientState(snapshot: message)
                        printer.snapshot(state!)
                    case "diff":
                        guard var current = state else { break }
                        let ok: Bool
                        do { ok = try current.apply(diff: message) } catch { ok = false }
                        if ok {
                            printer.diff(message, state: current)
                            state = current
                        } else {
                            printError("digest mismatch at seq \(message["seq"]?.description ?? "?"); subscribing again")
                            state = nil
                            try socket.send(["op": "subscribe", "view": viewJSON])
                        }
                    case "error":
                        let code = message["code"]?.stringValue ?? "error"
                        let text = message["message"]?.stringValue ?? ""
                        throw CommandFailure(status: code == "invalid_view" ? .usage : .unavailable, message: "daemon: \(code): \(text)")
                    case "resync":
                        if format == .pretty { printStandardError("resync (\(message["reason"]?.stringValue ?? "?")): a fresh snapshot follows") }
                    default:
                        break
                    }
                    if let s = state { position = (s.epoch, s.seq) }
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                printError("connection to the daemon lost (\(error)); reconnecting")
            }
            printStandardError("eventctl: the daemon closed the connection; reconnecting and resuming")
            Thread.sleep(forTimeInterval: backoff)
        }
    }
}
