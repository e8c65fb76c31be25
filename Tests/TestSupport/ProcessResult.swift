import Foundation

/// How a child process ended.
public enum ProcessExit: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this code.
    case exited(Int32)
    /// A signal (this number) ended it.
    case signaled(Int32)

    /// Decodes a `waitpid` status.
    public init(waitStatus status: Int32) {
        self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// The exit code, or 128 + the signal number (as a shell reports it).
    public var status: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        }
    }

    /// `exit N` or `signal N`.
    public var description: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signaled(let signal): return "signal \(signal)"
        }
    }
}

/// The output of a finished command (`ChildProcess.run` and `runBlocking`).
public struct ProcessResult: Sendable {
    /// How it ended.
    public var exit: ProcessExit
    /// Standard output as bytes (some tests compare binary output).
    public var stdoutBytes: [UInt8]
    /// Standard error as text.
    public var stderr: String
    /// Wall-clock seconds from start to exit.
    public var seconds: Double

    /// Creates a result (the runners do; tests rarely need to).
    public init(exit: ProcessExit, stdoutBytes: [UInt8], stderr: String, seconds: Double) {
        self.exit = exit
        self.stdoutBytes = stdoutBytes
        self.stderr = stderr
        self.seconds = seconds
    }

    /// Standard output as text (invalid UTF-8 repaired).
    public var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    /// The exit code, or 128 + the signal number.
    public var status: Int32 { exit.status }
    /// True when it exited with code 0.
    public var succeeded: Bool { exit == .exited(0) }

    /// Standard error split into lines (without empty ones).
    public var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}

/// Errors of the test helpers.
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error with this message.
    public init(_ description: String) { self.description = description }
}
