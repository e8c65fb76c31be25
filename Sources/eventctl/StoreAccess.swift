import Foundation
import CommandLineKit
import EventStore

/// Opens the database for a command; failures become `CommandFailure`s and
/// `DatabaseFailure`s (their exit statuses: `ExitStatus.for`).
enum StoreAccess {
    /// Opens an existing database; a missing one is a missing input, with a hint.
    static func openExisting(_ env: CommandEnvironment) throws -> EventStore {
        let path = env.paths.database
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.missingInput("no database at \(path); import a calendar first with `eventctl import FILE`")
        }
        return try open(path)
    }

    /// Opens the database, creating it and its directory when missing.
    static func openOrCreate(_ env: CommandEnvironment) throws -> EventStore {
        let path = env.paths.database
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw CommandFailure.ioFailure("cannot create directory \(directory): \(error.localizedDescription)")
            }
        }
        // The database holds private calendars: created 0600.
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        return try open(path)
    }

    static func open(_ path: String) throws -> EventStore {
        do {
            return try EventStore(path: path)
        } catch {
            throw DatabaseFailure(path: path, underlying: error)
        }
    }
}
