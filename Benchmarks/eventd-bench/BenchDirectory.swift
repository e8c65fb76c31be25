import Foundation

/// A benchmark's scratch directory: every bench that starts a daemon needs one with a
/// database and a socket path in it. The caller removes it (`defer { dir.remove() }`):
/// a deinit could run as soon as the last path is read, while the daemon still uses it.
struct BenchDirectory {
    /// The directory.
    let url: URL

    /// Creates a fresh directory under the temporary directory, named `prefix-UUID`.
    init(_ prefix: String) throws {
        url = try Bench.temporaryDirectory(prefix)
    }

    /// Removes the directory and everything in it.
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The database the bench imports into (`events.db`).
    var databasePath: String { path("events.db") }

    /// The daemon's feed socket (`feed.sock`).
    var socketPath: String { path("feed.sock") }

    /// The path of `name` in the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
