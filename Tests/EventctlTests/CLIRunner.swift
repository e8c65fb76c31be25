import Foundation

/// Runs the built `eventctl` (or `eventd`) binary the way a user would.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The directory holding the built products (next to the test bundle).
    static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventctl").path) { return url }
        }
        return URL(fileURLWithPath: ".build/debug")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

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
        let process = Process()
        process.executableURL = Self.productsDirectory.appendingPathComponent(program)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

/// A minimal VCALENDAR with the given VEVENT bodies (CRLF).
func calendar(_ events: String...) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd tests//EN\r\n"
    for e in events { text += "BEGIN:VEVENT\r\n" + e.split(separator: "\n").map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n" }
    return text + "END:VCALENDAR\r\n"
}
