import Foundation

// MARK: - ExternalTool

/// Runs helper programs (`python3`, `sha256sum`) from tests.
enum ExternalTool {
    /// The output of a finished process.
    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    // MARK: - Locating tools

    /// The first executable named `name` in `/usr/bin`, then `$PATH`.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = ["/usr/bin"] + path.split(separator: ":").map(String.init)
        for directory in directories {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    /// Path of `python3`, if installed.
    static let python3: String? = find("python3")

    /// Path of `sha256sum`, if installed.
    static let sha256sum: String? = find("sha256sum")

    // MARK: - Running

    /// Runs `executable` with `arguments`, feeding `input` on standard input
    /// (through a temporary file, so large inputs and outputs cannot
    /// deadlock on pipe buffers).
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws -> Output {
        let directory = FileManager.default.temporaryDirectory
        let token = UUID().uuidString
        let inputURL = directory.appendingPathComponent("support-tests-\(token).in")
        let errorURL = directory.appendingPathComponent("support-tests-\(token).err")
        defer {
            try? FileManager.default.removeItem(at: inputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        try Data(input).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer {
            try? inputHandle.close()
            try? errorHandle.close()
        }
        let stdout = Pipe()
        process.standardInput = inputHandle
        process.standardOutput = stdout
        process.standardError = errorHandle

        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        let errors = (try? Data(contentsOf: errorURL)) ?? Data()
        return Output(
            status: process.terminationStatus,
            stdout: [UInt8](output),
            stderr: String(decoding: errors, as: UTF8.self)
        )
    }
}
