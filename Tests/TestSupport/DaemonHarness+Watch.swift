import Foundation

extension DaemonHarness {
    /// `eventctl watch` against this harness's daemon and database in a pseudo-terminal of
    /// `columns`×`lines`: `arguments` after `watch` (a UTC view of 14 days unless given),
    /// xterm-256color, UTF-8 and colours on, with `environment` on top.
    public func watch(_ arguments: [String] = ["--tz", "UTC", "--days", "14"], columns: Int = 100, lines: Int = 30,
                      environment: [String: String] = [:]) throws -> PseudoTerminal {
        let env = daemonEnvironment(["TERM": "xterm-256color", "LANG": "C.UTF-8", "NO_COLOR": ""].merging(environment) { $1 })
        return try PseudoTerminal(DaemonHarness.eventctl, ["--db", dbPath, "--socket", socketPath, "watch"] + arguments,
                                  environment: env, columns: columns, lines: lines)
    }
}
