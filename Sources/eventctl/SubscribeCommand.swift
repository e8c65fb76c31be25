import Foundation
import Agenda
import CommandLineKit
import Feed
import Support

/// `eventctl subscribe [view options] [--resume EPOCH:SEQ] [--format ndjson|pretty]`
struct SubscribeCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl subscribe", abstract: "Follow the live agenda feed.",
        overview: "Subscribe to a view and follow its changes.",
        discussion: """
        Keeps a local copy of the view, applies every diff and checks its digest; on a
        mismatch it says so on standard error and subscribes again. When the daemon
        restarts, it reconnects and resumes where it left off.
        """,
        options: ViewOptions.declarations + [
            Option("--resume", value: "EPOCH:SEQ", help: "Resume from a state seen before (see the daemon's epoch).",
                   summary: "Resume from a state seen before",
                   validation: .custom { position($0) == nil ? "invalid value '\($0)' for --resume: expected EPOCH:SEQ" : nil }),
            Option("--format", value: "FORMAT", help: "ndjson (default: every message line as received) or pretty.",
                   summary: "Output format", completion: .choices(["ndjson", "pretty"]), manual: #"""
                   .B ndjson
                   (default: every message line as received) or
                   .B pretty
                   (human\-readable changes).
                   """#),
        ],
        examples: [
            "eventctl subscribe --format pretty",
            "eventctl subscribe --days 7 --calendar work | jq -c 'select(.type == \"diff\")'",
        ])

    enum Format: String { case ndjson, pretty }

    var options: ViewOptions
    var format: Format
    var resume: (epoch: String, seq: Int64)?

    init(_ arguments: ParsedArguments) {
        options = ViewOptions(arguments)
        format = arguments.value("--format").flatMap(Format.init(rawValue:)) ?? .ndjson
        resume = arguments.value("--resume").flatMap(Self.position)
    }

    /// `EPOCH:SEQ`, or nil when the text is not one.
    static func position(_ text: String) -> (epoch: String, seq: Int64)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let seq = Int64(parts[1]) else { return nil }
        return (String(parts[0]), seq)
    }

    var viewJSON: JSONValue { options.json }

    func run(_ env: CommandEnvironment) throws {
        let path = env.paths.socket
        let printer = FeedPrinter(format: format, color: isatty(1) != 0 && (env.environment["NO_COLOR"] ?? "").isEmpty)
        var state: FeedClientState?
        var position = resume
        var everConnected = false
        var backoff = 0.2
        while true {
            let socket: FeedSocket
            do {
                socket = try DaemonConnection.open(env)
            } catch let e as FeedSocket.Unavailable {
                if !everConnected { throw CommandFailure.daemonUnavailable(DaemonHint.unavailable(path, e.description)) }
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
                        let message = "daemon: \(code): \(text)"
                        if code == "invalid_view" { throw UsageError(message) }
                        throw CommandFailure.daemonUnavailable(message)
                    case "resync":
                        if format == .pretty { printStandardError("resync (\(message["reason"]?.stringValue ?? "?")): a fresh snapshot follows") }
                    default:
                        break
                    }
                    if let s = state { position = (s.epoch, s.seq) }
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch let usage as UsageError {
                throw usage
            } catch {
                printError("connection to the daemon lost (\(error)); reconnecting")
            }
            printStandardError("eventctl: the daemon closed the connection; reconnecting and resuming")
            Thread.sleep(forTimeInterval: backoff)
        }
    }
}
