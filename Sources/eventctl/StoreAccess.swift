import Foundation
import CommandLineKit
import EventStore
import RuntimeDirectories
import Diagnostics

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

    /// Opens the database, creating it and its directory when missing. `mmapBytes`:
    /// as `StoreOptions` (0 for a writer that then reads much of the file: mapped, those
    /// pages would count in its resident size).
    static func openOrCreate(_ env: CommandEnvironment, mmapBytes: Int = StoreOptions.standard.mmapBytes) throws -> EventStore {
        let path = env.paths.database
        try checkDirectory(env, create: true)
        // The database holds private calendars: created 0600.
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        return try open(path, mmapBytes: mmapBytes)
    }

    /// Checks the database's directory by the rules eventd uses (a per-user default is
    /// the user's alone, mode 0700; made so when missing and `create` is set).
    static func checkDirectory(_ env: CommandEnvironment, create: Bool) throws {
        let paths = env.paths
        _ = try CheckedDirectory.open(RuntimePaths.directory(of: paths.database),
                                      policy: paths.databaseDirectoryPolicy(uid: getuid()), create: create)
    }

    /// Exit 65 for calendars the database does not hold, naming those it does: the one
    /// answer every command gives (docs/data-model.md).
    static func requireCalendars(_ names: [String], in store: EventStore) throws {
        guard !names.isEmpty else { return }
        let known: [String]
        do { known = try store.calendarNames() } catch let e as SQLiteError { throw DatabaseFailure(path: store.path, underlying: e) }
        if let missing = names.first(where: { !known.contains($0) }) { throw unknownCalendar(missing, known: known) }
    }

    /// The same check for a client of the feed (`subscribe`, `watch`): against the
    /// database when this user can read it, else against the daemon's `calendar_names`
    /// (`daemonNames`, asked only then; nil: the daemon checks the view itself).
    static func requireCalendars(_ names: [String], _ env: CommandEnvironment, daemonNames: () -> [String]?) throws {
        guard !names.isEmpty else { return }
        if let store = try? openExisting(env) { return try requireCalendars(names, in: store) }
        guard let known = daemonNames() else { return }
        if let missing = names.first(where: { !known.contains($0) }) { throw unknownCalendar(missing, known: known) }
    }

    /// `no calendar named "x" (calendars: a, b)`.
    static func unknownCalendar(_ name: String, known: [String]) -> CommandFailure {
        .badData("no calendar named \"\(name.terminalSafe)\" (calendars: "
                 + (known.isEmpty ? "none yet" : known.joined(separator: ", ")) + "; see `eventctl calendars`)")
    }

    static func open(_ path: String, mmapBytes: Int = StoreOptions.standard.mmapBytes) throws -> EventStore {
        do {
            return try EventStore(path: path, mmapBytes: mmapBytes)
        } catch {
            throw DatabaseFailure(path: path, underlying: error)
        }
    }
}
