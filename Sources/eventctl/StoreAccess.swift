import Foundation
import EventStore
import Support

/// Opens the database for a command, mapping failures to exit statuses.
enum StoreAccess {
    /// Opens an existing database; a missing one is exit 66 with a hint.
    static func openExisting(_ env: CommandEnvironment) throws -> EventStore {
        let path = env.paths.database
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(status: .noInput,
                                 message: "no database at \(path); import a calendar first with `eventctl import FILE`")
        }
        return try open(path, create: false)
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
                throw CommandFailure(status: .ioError, message: "cannot create directory \(directory): \(error.localizedDescription)")
            }
        }
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        return try open(path, create: true)
    }

    static func open(_ path: String, create: Bool) throws -> EventStore {
        do {
            return try EventStore(path: path)
        } catch let error as SQLiteError {
            throw failure(error, path: path)
        } catch let error as StoreError {
            throw CommandFailure(status: .dataError, message: "\(path): \(error)")
        }
    }

    /// Maps a database error to an exit status and message.
    static func failure(_ error: SQLiteError, path: String) -> CommandFailure {
        if error.isBusy {
            return CommandFailure(status: .ioError, message: "database \(path) is busy (locked by another process); try again")
        }
        if error.isIOError {
            return CommandFailure(status: .ioError, message: "cannot write database \(path): \(error.message)")
        }
        if error.primaryCode == 26 || error.primaryCode == 11 { // SQLITE_NOTADB, SQLITE_CORRUPT
            return CommandFailure(status: .dataError, message: "\(path) is not a valid eventd database: \(error.message)")
        }
        return CommandFailure(status: .software, message: "database error on \(path): \(error)")
    }
}
