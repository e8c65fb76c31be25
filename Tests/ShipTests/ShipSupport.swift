import Foundation

/// Runs programs for the shipping tests: the built `eventd`/`eventctl`, the install
/// script, `systemd-analyze`, shells.
enum Ship {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard error split into lines (without the final empty one).
        var stderrLines: [String] {
            stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
    }

    /// The directory holding the built products (next to the test bundle).
    static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventctl").path),
               FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventd").path) {
                return url
            }
        }
        return repositoryRoot.appendingPathComponent(".build/debug")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func source(_ path: String) -> URL { repositoryRoot.appendingPathComponent(path) }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: source(path), encoding: .utf8)
    }

    /// The first executable called `name` on PATH (or in the usual system directories).
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A fresh temporary directory; remove it with `cleanUp`.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ship-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func cleanUp(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// Runs `executable` with `arguments`; standard input is empty.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
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

    /// Runs the built `eventctl` or `eventd`.
    @discardableResult
    static func product(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try run(productsDirectory.appendingPathComponent(program).path, arguments, environment: environment)
    }

    /// Every file (regular or symlink) below `root`, as paths relative to it.
    static func files(below root: URL) -> Set<String> {
        var result = Set<String>()
        let prefix = root.resolvingSymlinksInPath().path + "/"
        guard let walker = FileManager.default.enumerator(at: root.resolvingSymlinksInPath(),
                                                          includingPropertiesForKeys: [.isDirectoryKey]) else { return result }
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey])
            if values?.isDirectory == true { continue }
            let path = url.path
            result.insert(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return result
    }

    /// The permission bits of a file.
    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }
}
