import Foundation
import TestSupport

/// Runs the built `eventctl` (or `eventd`) binary the way a user would, with its own
/// temporary database and socket (through TestSupport's `ChildProcess`).
struct CLIRunner {
    typealias Result = ProcessResult

    static var productsDirectory: URL { Products.directory }
    static var repositoryRoot: URL { Products.repositoryRoot }

    let directory: URL
    var environment: [String: String]

    /// A runner with its own temporary database and socket.
    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("eventctl-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["EVENTD_DB"] = directory.appendingPathComponent("events.db").path
        env["EVENTD_SOCKET"] = directory.appendingPathComponent("feed.sock").path
        env["NO_COLOR"] = "1"
        environment = env
    }

    var database: String { environment["EVENTD_DB"]! }

    func file(_ name: String, _ contents: String) -> String {
        let url = directory.appendingPathComponent(name)
        try? contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func sample(_ name: String) -> String {
        Self.repositoryRoot.appendingPathComponent("sample-calendars").appendingPathComponent(name).path
    }

    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, program: String = "eventctl",
             extraEnvironment: [String: String] = [:]) throws -> Result {
        try ChildProcess.runBlocking(Products.path(program), arguments,
                                     environment: environment.merging(extraEnvironment) { $1 },
                                     directory: directory.path, stdin: stdin.map { [UInt8]($0) })
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

/// A minimal VCALENDAR with the given VEVENT bodies (CRLF).
func calendar(_ events: String...) -> String {
    icsCalendar(bodies: events)
}
