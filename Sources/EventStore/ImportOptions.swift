/// Options of an import run.
public struct ImportOptions: Sendable {
    /// Make each target calendar hold exactly the events of this run's files.
    public var replace = false
    /// Treat any warning as a failure (nothing is written).
    public var strict = false
    /// Skip parsing VEVENT blocks stored unchanged (plain runs only). Off only in tests
    /// that compare an incremental import with a full one.
    var reuseUnchangedBlocks = true
    /// Only files at least this large skip blocks: finding the calendar's stored digests
    /// costs a pass over its rows, which a small file's parse does not repay (a vdir of
    /// 10,000 one-event files would pay it 10,000 times). Tests lower it.
    var reuseBlocksFromBytes = 256 << 10
    /// A file of at least this many VEVENTs, and at least as many as the event table
    /// holds, is loaded in bulk (`ImportWriter+BulkLoad`). Tests move it.
    var bulkLoadFromBlocks = defaultBulkLoadFromBlocks
    /// 4,096: below that, rebuilding the indexes saves too little to notice.
    static let defaultBulkLoadFromBlocks = 4096

    /// A run of this many bytes into a database no other connection has open writes
    /// with a rollback journal (`EventStore+RollbackJournal`). From 1 MiB: below that,
    /// the switches there and back (a few file creations and syncs) cost about what a
    /// WAL write saves. Up to 32 MiB: readers wait while a rollback-journal transaction
    /// holds the file (from its first spill of pages to its commit), and 32 MiB imports
    /// in about 1.5-2.5 s here, well within their 5 s busy timeout; larger runs write
    /// through the WAL, readers unhindered. Tests move it.
    var rollbackJournalBytes = (1 << 20)...(32 << 20)

    /// Creates options (both off by default).
    public init(replace: Bool = false, strict: Bool = false) {
        self.replace = replace
        self.strict = strict
    }
}
