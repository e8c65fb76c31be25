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
        let status: FeedStatus
        do {
            let socket = try DaemonConnection.open(env)
            guard let reply = try DaemonConnection.answer(to: .status, on: socket, timeout: .seconds(5)), let answer = FeedStatus(reply) else {
                throw CommandFailure.daemonUnavailable("the daemon at \(path) did not answer the status request")
            }
            status = answer
        } catch let e as FeedSocket.Unavailable {
            throw CommandFailure.daemonUnavailable(DaemonHint.unavailable(path, e.description))
        }
        if json {
            print(status.json.canonicalString())
            return
        }
        // The daemon's text quotes paths and problems: made safe for the terminal.
        func s(_ value: String?) -> String { (value ?? "-").terminalSafe }
        func n(_ value: Int64?) -> String { value.map(String.init) ?? "-" }
        print("eventd \(s(status.version)), up \(n(status.uptimeSeconds)) s, epoch \(s(status.epoch))")
        print("database:      \(s(status.database)) (\(n(status.events)) events, \(n(status.calendars)) calendars)")
        print("socket:        \(path.terminalSafe)")
        print("views:         \(n(status.views)), subscribers: \(n(status.subscribers)), connections: \(n(status.connections))")
        if let last = status.lastRecompute {
            print("last recompute: \(s(last.time)) in \(last.durationMS.map { JSONValue.double($0).description } ?? "-") ms")
        }
        if let problem = status.problem { print("problem:       \(problem.terminalSafe)") }
        let sources = status.sources
        if !sources.isEmpty { print("sources:") }
        for source in sources { print("  " + SourceCommand.describe(source).replacingOccurrences(of: "\n", with: "\n  ")) }
    }
}
