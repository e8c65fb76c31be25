import Foundation
import Feed
import Support

/// `eventctl status [--json]`
struct StatusCommand: Subcommand {
    static let name = "status"
    static let abstract = "Show the running daemon's status."
    static let help = """
    OVERVIEW: Ask the running eventd for its status.

    USAGE: eventctl status [--json]

    OPTIONS:
      --json       Print the daemon's status message as JSON.
      -h, --help   Show help information.

    EXAMPLES:
      eventctl status
      eventctl --socket /run/eventd/feed.sock status --json
    """

    var json = false

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl status")
        while let token = scanner.next() {
            switch token {
            case .option("--json", nil): json = true
            case .option(let name, .some) where ["--json"].contains(name): throw scanner.noValue(name)
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p): throw UsageError("unexpected argument '\(p)'", hint: "see 'eventctl status --help'")
            }
        }
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let path = env.paths.socket
        let status: JSONValue
        do {
            let socket = try FeedSocket(path: path)
            _ = try socket.readMessage(timeout: 5)
            try socket.send(["op": "status"])
            guard let reply = try socket.readMessage(timeout: 5)?.value, reply["type"]?.stringValue == "status" else {
                throw CommandFailure(status: .unavailable, message: "the daemon at \(path) did not answer the status request")
            }
            status = reply
        } catch let e as FeedSocket.Unavailable {
            throw CommandFailure(status: .unavailable, message: DaemonHint.unavailable(path, e.description))
        }
        if json {
            print(status.canonicalString())
            return .success
        }
        func s(_ key: String) -> String { status[key].map { $0.stringValue ?? $0.description } ?? "-" }
        print("eventd \(s("version")), up \(s("uptime_seconds")) s, epoch \(s("epoch"))")
        print("database:      \(s("database")) (\(s("events")) events, \(s("calendars")) calendars)")
        print("socket:        \(path)")
        print("views:         \(s("views")), subscribers: \(s("subscribers")), connections: \(s("connections"))")
        if let last = status["last_recompute"], !last.isNull {
            print("last recompute: \(last["time"]?.stringValue ?? "-") in \(last["duration_ms"]?.description ?? "-") ms")
        }
        if let problem = status["problem"]?.stringValue { print("problem:       \(problem)") }
        return .success
    }
}

enum DaemonHint {
    static func unavailable(_ path: String, _ reason: String) -> String {
        "no daemon is listening on \(path) (\(reason)); start it with `eventd` or `systemctl --user start eventd.socket`"
    }
}
