import Foundation
import CommandLineKit
import FeedClientKit
import FeedProtocol
import CanonicalJSON
import Diagnostics

/// `eventctl status [--json]`
struct StatusCommand: JSONOutputCommand {
    static let json = Option.flag("--json", help: "Print the daemon's status message as JSON.")
    static let spec = declare("status", abstract: "Show the running daemon's status.", overview: "Ask the running eventd for its status.",
                              examples: ["eventctl status", "eventctl --socket /run/eventd/feed.sock status --json"])

    var json: Bool

    func run(_ env: CommandEnvironment) throws {
        let path = env.paths.socket
        let status: JSONValue
        do {
            let socket = try DaemonConnection.open(env)
            guard let reply = try DaemonConnection.answer(to: .status, on: socket, timeout: 5), case .status = reply else {
                throw CommandFailure.daemonUnavailable("the daemon at \(path) did not answer the status request")
            }
            status = reply.json
        } catch let e as FeedSocket.Unavailable {
            throw CommandFailure.daemonUnavailable(DaemonHint.unavailable(path, e.description))
        }
        if json {
            print(status.canonicalString())
            return
        }
        // The daemon's text quotes paths and problems: made safe for the terminal.
        func s(_ key: String) -> String { (status[key].map { $0.stringValue ?? $0.description } ?? "-").terminalSafe }
        print("eventd \(s("version")), up \(s("uptime_seconds")) s, epoch \(s("epoch"))")
        print("database:      \(s("database")) (\(s("events")) events, \(s("calendars")) calendars)")
        print("socket:        \(path.terminalSafe)")
        print("views:         \(s("views")), subscribers: \(s("subscribers")), connections: \(s("connections"))")
        if let last = status["last_recompute"], !last.isNull {
            print("last recompute: \((last["time"]?.stringValue ?? "-").terminalSafe) in \(last["duration_ms"]?.description ?? "-") ms")
        }
        if let problem = status["problem"]?.stringValue { print("problem:       \(problem.terminalSafe)") }
        let sources = status["sources"]?.arrayValue ?? []
        if !sources.isEmpty { print("sources:") }
        for source in sources { print("  " + SourceCommand.describe(source).replacingOccurrences(of: "\n", with: "\n  ")) }
    }
}
