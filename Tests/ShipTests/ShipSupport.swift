import Foundation
import TestSupport

/// Runs programs for the shipping tests: the built `eventd`/`eventctl`, the install
/// script, `systemd-analyze`, shells (through TestSupport's `ChildProcess`).
enum Ship {
    typealias Result = ProcessResult

    static var productsDirectory: URL { Products.directory }
    static var repositoryRoot: URL { Products.repositoryRoot }

    static func source(_ path: String) -> URL { repositoryRoot.appendingPathComponent(path) }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: source(path), encoding: .utf8)
    }

    /// The first executable called `name` on PATH (or in the usual system directories).
    static func which(_ name: String) -> String? { Products.which(name) }

    /// A fresh temporary directory; remove it with `cleanUp`.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ship-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func cleanUp(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// Runs `executable` with `arguments` in `directory`; standard input is empty.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    directory: URL? = nil) throws -> Result {
        try ChildProcess.runBlocking(executable, arguments,
                                     environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                     workingDirectory: directory?.path)
    }

    /// Runs the built `eventctl` or `eventd`.
    @discardableResult
    static func product(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try run(Products.path(program), arguments, environment: environment)
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
