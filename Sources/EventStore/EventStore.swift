import Foundation
import ICalendar

/// Summary of one calendar.
public struct CalendarInfo: Sendable, Equatable {
    /// The calendar's name.
    public var name: String
    /// Its events (masters and overrides).
    public var events: Int
    /// The paths of the files imported into it, sorted.
    public var sources: [String]
    /// Its colour: the one a user chose, else its own from its files; nil for none.
    public var color: String? = nil
}

/// The SQLite event store: calendars, sources, events and in-file time zones.
///
/// One `EventStore` owns one connection, which stays inside it; use a store from one
/// thread (or actor) at a time.
public final class EventStore {
    /// The connection; internal so that storage stays inside the store.
    let db: Connection
    /// The database path.
    public var path: String { db.path }
    /// The database and WAL files as they were at open (see `detachStaleFiles()`).
    public let files: DatabaseFiles
    /// The second connection of large window scans (`WindowReader`), opened when first
    /// needed; closed when this store needs the database to itself or it was replaced.
    var windowReader: WindowReader?
    /// Rows the last window scan read (`seriesFingerprints(fromMinute:...)`).
    var lastWindowRows = 0
    /// Window scans after one of at least this many rows join overrides on a second
    /// connection meanwhile (`WindowReader`); tests lower it to take that path.
    public var parallelWindowRows = 2048
    /// Set once the database was replaced under us: no second connection from then on.
    var windowReaderRetired = false

    /// Opens the store at `path`, creating and migrating it unless `readOnly`.
    /// `mmapBytes` bounds how much of the file is memory-mapped (0 reads through SQLite's cache).
    public convenience init(path: String, readOnly: Bool = false, mmapBytes: Int = 256 << 20) throws {
        try self.init(path: path, options: StoreOptions(readOnly: readOnly, mmapBytes: mmapBytes))
    }

    /// Opens the store at `path` as `options` say (`.standard`, `.daemon`), creating
    /// and migrating it unless read-only.
    public init(path: String, options: StoreOptions) throws {
        let created = !options.readOnly && access(path, F_OK) != 0
        let db = try Self.connect(path: path, options: options)
        if let cache = options.cacheKiB {
            try db.execute("PRAGMA cache_size = -\(cache)")
        }
        if !options.readOnly {
            try Schema.migrate(db)
            // The new file's name is made durable before anything is acknowledged in it
            // (its WAL's name SQLite syncs itself: `DirectorySync`), and its directory's
            // own name, which a command may have just created (`eventctl`'s first run).
            if created {
                try DirectorySync.syncParent(of: path)
                try DirectorySync.syncParent(of: DirectorySync.parent(of: path))
            }
        } else {
            let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            if version > Schema.currentVersion {
                throw StoreError.newerSchema(found: version, supported: Schema.currentVersion)
            }
        }
        self.db = db
        // After the first reads: the -wal/-shm files exist by now.
        files = DatabaseFiles(path: path)
    }

    /// The second connection closes first: the store's own is then the last to close,
    /// and does what SQLite does on the last close (or not, after `detachStaleFiles`).
    deinit {
        windowReader = nil
    }

    private static func connect(path: String, options: StoreOptions) throws -> Connection {
        guard options.createsPrivately else {
            return try Connection(path: path, readOnly: options.readOnly, mmapBytes: options.mmapBytes, vfs: options.vfs)
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // Its name too, as the database's below (`DirectorySync`).
            try DirectorySync.syncParent(of: directory)
        }
        // A database created here is private to its owner (0600, and so are its WAL files).
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        // Opening (with WAL journaling) creates the -wal/-shm files under the mask too.
        return try Connection(path: path, readOnly: options.readOnly, mmapBytes: options.mmapBytes, vfs: options.vfs)
    }

    /// Runs `body` in one read transaction, so that every query in it sees the same
    /// database state; the transaction ends (rolled back) when `body` throws.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try db.inReadTransaction(body)
    }

    /// Takes our `-wal`/`-shm` names away from a database file that was replaced or
    /// removed under us (see `DatabaseFiles`).
    ///
    /// While we hold the old database open, its WAL and shared-memory files stay at
    /// `PATH-wal`/`PATH-shm`, next to whatever file is at PATH now: any connection that
    /// opens the new file (eventctl, or we on reopening) would read our WAL frames as its
    /// own and corrupt it. So when those names are still ours: checkpoint our committed
    /// frames into our own file (which may have been moved elsewhere, and then keeps
    /// them), and unlink the names. The connection keeps its descriptors and serves on.
    /// Names that are no longer ours are left alone. Throws when the checkpoint failed
    /// (the names are unlinked all the same); later calls do nothing.
    public func detachStaleFiles() throws {
        // The second connection goes first, while this one is open (so it is not the
        // last to close, which would delete the WAL by name), and is not opened again:
        // it would open whatever file is at PATH now.
        windowReader = nil
        windowReaderRetired = true
        // Whatever happens to the names below, closing this connection later must not
        // delete `PATH-wal`: by then it may belong to the new file (another connection of
        // this process, eventctl), and SQLite deletes the WAL by name on the last close.
        db.keepWALOnClose()
        var failure: (any Error)?
        if files.walIsOurs {
            do { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") } catch { failure = error }
        }
        files.unlinkOwnCompanions()
        if let failure { throw failure }
    }

    // MARK: - Calendars

    /// Every calendar, by name, with its event count and sources.
    public func calendars() throws -> [CalendarInfo] {
        var sources: [Int64: [String]] = [:]
        try db.statement("SELECT calendar_id, path FROM source ORDER BY path").forEachRow { row in
            sources[row.int(0), default: []].append(row.text(1))
        }
        return try db.statement("""
            SELECT c.id, c.name, (SELECT count(*) FROM event e WHERE e.calendar_id = c.id), coalesce(c.chosen_color, c.color)
            FROM calendar c ORDER BY c.name
            """).map { row in
            CalendarInfo(name: row.text(1), events: Int(row.int(2)), sources: sources[row.int(0)] ?? [],
                         color: row.isNull(3) ? nil : row.text(3))
        }
    }

    /// Each calendar's colour that has one (chosen, else its own), by name.
    public func calendarColors() throws -> [String: String] {
        var colors: [String: String] = [:]
        try db.statement("SELECT name, coalesce(chosen_color, color) FROM calendar WHERE coalesce(chosen_color, color) IS NOT NULL")
            .forEachRow { colors[$0.text(0)] = $0.text(1) }
        return colors
    }

    /// Gives calendar `name` the colour `color` (`#rgb` or `#rrggbb`; nil: back to its own).
    public func setCalendarColor(_ name: String, _ color: String?) throws {
        let value: SQLValue = color.flatMap { $0.hasPrefix("#") ? CalendarColor.normalized($0) : nil }.map { .text($0) } ?? .null
        if let color, case .null = value { throw StoreError.invalidColor(color) }
        guard try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(name)]) != nil else {
            throw StoreError.unknownCalendar(name)
        }
        try db.statement("UPDATE calendar SET chosen_color = ? WHERE name = ?").run([value, .text(name)])
    }

    /// The names of all calendars.
    public func calendarNames() throws -> [String] {
        try db.statement("SELECT name FROM calendar ORDER BY name").map { $0.text(0) }
    }

    /// Deletes a calendar with its sources and events. Returns the number of events removed.
    @discardableResult
    public func removeCalendar(_ name: String) throws -> Int {
        try db.inTransaction {
            guard let id = try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(name)]) else {
                throw StoreError.unknownCalendar(name)
            }
            let count = Int(try db.scalarInt("SELECT count(*) FROM event WHERE calendar_id = ?", [.int(id)]) ?? 0)
            try db.statement("DELETE FROM calendar WHERE id = ?").run([.int(id)])
            try Self.collectUnusedZones(db)
            return count
        }
    }

    /// Total number of events (masters and overrides).
    public func eventCount() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM event") ?? 0)
    }

    /// Each calendar's name and number of events (the count reads the UNIQUE index's
    /// range of that calendar only).
    private static let calendarCountsQuery = "SELECT c.name, (SELECT count(*) FROM event e WHERE e.calendar_id = c.id) FROM calendar c"

    /// Events per calendar, every calendar included (0 for one without events).
    public func eventCountsByCalendar() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        try db.statement(Self.calendarCountsQuery).forEachRow { row in counts[row.text(0)] = Int(row.int(1)) }
        return counts
    }

    /// The number of events in the calendar `name`; nil when there is no such calendar.
    public func eventCount(ofCalendar name: String) throws -> Int? {
        var count: Int?
        try db.statement(Self.calendarCountsQuery + " WHERE c.name = ?").forEachRow([.text(name)]) { row in count = Int(row.int(1)) }
        return count
    }

    /// Changes whenever another connection commits (`PRAGMA data_version`).
    public func dataVersion() throws -> Int64 { try db.dataVersion() }
}

/// How an `EventStore` opens its database.
public struct StoreOptions: Sendable, Equatable {
    /// Open without creating or migrating; fails on a database newer than this eventd.
    public var readOnly = false
    /// How much of the file SQLite may memory-map (0: read through its page cache).
    public var mmapBytes = 256 << 20
    /// SQLite's page cache for the connection, in KiB (nil: SQLite's default).
    public var cacheKiB: Int?
    /// Creates the database's directory (mode 0700) when it is missing, and creates a
    /// new database (and its WAL files) private to its owner (umask 077 while opening).
    public var createsPrivately = false
    /// The SQLite VFS to open through, by its registered name (nil: the default). The
    /// power-cut tests' VFS (`CCrashVFS`) is the only other one.
    public var vfs: String?

    /// Creates options; the defaults suit a command that opens the store briefly.
    public init(readOnly: Bool = false, mmapBytes: Int = 256 << 20, cacheKiB: Int? = nil, createsPrivately: Bool = false) {
        self.readOnly = readOnly
        self.mmapBytes = mmapBytes
        self.cacheKiB = cacheKiB
        self.createsPrivately = createsPrivately
    }

    /// A command's store: memory-mapped reads, SQLite's default cache.
    public static let standard = StoreOptions()

    /// The long-running daemon's store: no memory map and a 2 MiB page cache (the
    /// resident size stays small: a view's build reads each series once, and the kernel's
    /// page cache holds the file), its directory and a new file created private.
    public static let daemon = StoreOptions(mmapBytes: 0, cacheKiB: 2048, createsPrivately: true)
}
