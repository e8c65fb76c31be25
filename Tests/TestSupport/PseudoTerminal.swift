import Foundation
import CanonicalJSON

/// A program run in a real pseudo-terminal whose output a VT emulator reads
/// (`scripts/pty_screen.py`: pyte from `.venv`, `make venv`): what a person would see,
/// the bytes the program wrote, and the terminal modes it left.
// @unchecked: one test drives it from one task at a time; Sendable only lets the test
// hand it into the harness's closure.
public final class PseudoTerminal: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    /// Whether pyte (and Pillow, for images) are installed in `.venv`.
    public static var isAvailable: Bool {
        let site = Products.repositoryRoot.appendingPathComponent(".venv/lib")
        let found = FileManager.default.enumerator(at: site, includingPropertiesForKeys: nil)?
            .contains { ($0 as? URL)?.lastPathComponent == "pyte" } ?? false
        return found
    }

    /// Starts `executable ARGS` in a terminal of `columns` × `lines` with `environment`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String],
                columns: Int = 80, lines: Int = 24) throws {
        let root = Products.repositoryRoot
        process.executableURL = root.appendingPathComponent(".venv/bin/python")
        process.arguments = [root.appendingPathComponent("scripts/pty_screen.py").path, "\(columns)", "\(lines)", executable] + arguments
        process.environment = environment.merging(["PYTHONPATH": root.appendingPathComponent("scripts").path]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        // Processes the test starts later (a restarted eventd) must not hold the emulator's
        // stdin open: it would never see its end.
        for fd in [input.fileHandleForWriting.fileDescriptor, input.fileHandleForReading.fileDescriptor,
                   output.fileHandleForReading.fileDescriptor, output.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        try process.run()
    }

    deinit { close() }

    /// Ends the emulator (which kills the program if it still runs).
    public func close() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Sends one request (see the script) and returns its answer.
    @discardableResult
    public func send(_ request: JSONValue) throws -> Answer {
        input.fileHandleForWriting.write(Data(request.canonicalBytes() + [10]))
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return Answer(try JSONValue.parse(Array(line), maxDepth: 16))
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw HarnessError("the terminal emulator ended") }
            buffer += more
        }
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    public func wait(for text: String, timeout: Double = 5) throws -> Answer {
        try send(["op": "wait", "text": .string(text), "timeout": .double(timeout)])
    }

    /// Waits until the program writes nothing for `milliseconds` (after it has written
    /// more than `bytes` in all, when given).
    @discardableResult
    public func quiet(_ milliseconds: Int = 300, after bytes: Int = -1, timeout: Double = 10) throws -> Answer {
        try send(["op": "quiet", "ms": .int(Int64(milliseconds)), "after": .int(Int64(bytes)), "timeout": .double(timeout)])
    }

    /// Types `text`.
    public func type(_ text: String) throws { try send(["op": "keys", "data": .string(text)]) }

    /// Writes `text` to the terminal from outside the program (as another process would).
    public func inject(_ text: String) throws { try send(["op": "inject", "data": .string(text)]) }

    /// The screen now with each cell's look (`Answer.styles`).
    public func styles() throws -> Answer { try send(["op": "styles"]) }

    /// One answer of the emulator.
    public struct Answer: Sendable {
        public let json: JSONValue
        init(_ json: JSONValue) { self.json = json }

        /// The screen's lines.
        public var screen: [String] { json["screen"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        /// All bytes the program wrote so far.
        public var bytes: Int { Int(json["bytes"]?.intValue ?? 0) }
        /// Whether `wait` saw its text.
        public var ok: Bool { json["ok"]?.boolValue ?? false }
        public var title: String { json["title"]?.stringValue ?? "" }
        public var cursorHidden: Bool { json["cursor_hidden"]?.boolValue ?? false }
        public var alternateScreen: Bool { json["alt_screen"]?.boolValue ?? false }
        /// Whether the program has the terminal report the mouse.
        public var mouseReporting: Bool { json["mouse"]?.boolValue ?? false }
        /// The exit status (`exit`), nil while running or for a signal.
        public var status: Int? { json["status"]?.intValue.map(Int.init) }
        /// The screens seen since the last `frames` request.
        public var frames: [[String]] {
            json["frames"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
        }
        /// Each cell's look (`styles` only): `b` bold, `u` underline, `r` reverse, then
        /// `/` and the background when it is not the terminal's own.
        public var styles: [[String]] {
            json["styles"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
        }
        /// The screen as text, for failure messages.
        public var text: String { screen.joined(separator: "\n") }
    }
}
