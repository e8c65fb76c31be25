import Foundation
import CommandLineKit
import EventStore
import RuntimeDirectories

/// Opens the database for a command; failures become `CommandFailure`s and
/// `DatabaseFailure`s (their exit statuses: `ExitStatus.for`).
enum StoreAccess {
    /// Opens an existing database; a missing one is a missing input, with a hint.
    static func openExisting(_ env: CommandEnvironment) throws -> EventStore {
        let path = env.paths.database
        try checkDirectory(env, create: false)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.missingInput("no database at \(path); import a calendar first with `eventctl import FILE`")
        }
        return try open(path)
    }

    /// Opens the database, creating it and its directory when missing.
    static func openOrCreate(_ env: CommandEnvironment) throws -> EventStore {
        let path = env.paths.database
        try checkDirectory(env, create: true)
        // The database holds private calendars: created 0600.
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        return try open(path)
    }

    /// Checks the database's directory by the rules eventd uses (a per-user default is
    /// the user's alone, mode 0700; made so when missing and `create` is set).
    static func checkDirectory(_ env: CommandEnvironment, create: Bool) throws {
        let paths = env.paths
        _ = try CheckedDirectory.open(RuntimePaths.directory(of: paths.database),
                                      policy: paths.databaseDirectoryPolicy(uid: getuid()), create: create)
    }

    static func open(_ path: String) throws -> EventStore {
        do {
            return try EventStore(path: path)
        } catch {
            throw DatabaseFailure(path: path, underlying: error)
        }
    }
}
