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
