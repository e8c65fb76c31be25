import Digests
import ICalendar

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

/// One input of an import run.
public struct ImportInput: Sendable {
    /// The source identity: an absolute path, or `-` for standard input.
    public var path: String
    /// How messages name the file.
    public var displayName: String
    /// The file's content.
    public var bytes: [UInt8]
    /// Target calendar.
    public var calendar: String
    /// The live source that reads this input (its name); nil for `eventctl import`.
    /// A live source writes only inputs and events it owns (docs/data-model.md,
    /// "Ownership"; `ImportWriter+Ownership`).
    public var liveSource: String?

    /// Creates an input.
    public init(path: String, displayName: String, bytes: [UInt8], calendar: String, liveSource: String? = nil) {
        self.path = path
        self.displayName = displayName
        self.bytes = bytes
        self.calendar = calendar
        self.liveSource = liveSource
    }
}

/// What an import did to one file's events.
public struct FileImportResult: Sendable, Equatable {
    /// The source identity (as in `ImportInput.path`).
    public var path: String
    /// How messages name the file.
    public var displayName: String
    /// The target calendar.
    public var calendar: String
    /// Events new to the calendar.
    public var added = 0
    /// Events whose stored row was rewritten.
    public var updated = 0
    /// Events removed (gone from the file, or not in the run with `replace`).
    public var removed = 0
    /// Events already stored as they are.
    public var unchanged = 0
    /// Components that could not be used.
    public var skipped = 0
    /// Events of a live source's file that were not written because the calendar holds
    /// them from another owner (an `eventctl import`, another source): kept as they are.
    public var keptFromOthers = 0
    /// Problems that did not stop the import, in file order.
    public var warnings: [ImportIssue] = []
    /// The file's bytes were those its source last synchronised: nothing was parsed
    /// or written (`unchanged` counts the source's events; no warnings are repeated).
    public var sameBytes = false
    /// Of `unchanged`, the events whose VEVENT was not parsed again: its block's digest
    /// was stored by the row (see `BlockDigest`).
    public var reusedBlocks = 0

    /// True when the run changed any row for this file.
    public var changedAnything: Bool { added + updated + removed > 0 }
}

/// Why an import run failed as a whole. Nothing was written.
public enum ImportError: Error, CustomStringConvertible {
    /// The file is not usable iCalendar (`FILE:LINE: message`).
    case syntax(file: String, line: Int, message: String)
    /// `--strict` and there were warnings.
    case strict(file: String, issues: [ImportIssue])
    /// Invalid calendar name.
    case invalidCalendarName(String)
    /// The file is an input the live source `source` owns in `calendar` (docs/data-model.md,
    /// "Ownership"): imported there, its events would go with the source.
    case ownedByLiveSource(file: String, source: String, calendar: String)
    /// The time zone definitions the file's events use would take the database past its
    /// bound (`EventStore.maxStoredZones`, `maxStoredZoneBytes`).
    case zoneBound(file: String, definitions: Int, bytes: Int)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .syntax(let file, let line, let message): return "\(file):\(line): \(message)"
        case .strict(let file, let issues):
            let first = issues.first.map { "\(file):\($0.line): \($0.message)" } ?? file
            return "\(first) (--strict: \(issues.count) warning\(issues.count == 1 ? "" : "s"), nothing imported)"
        case .invalidCalendarName(let name):
            return StoreError.invalidCalendarName(name).description
        case .ownedByLiveSource(let file, let source, let calendar):
            return "\(file) is read by source \(source) into calendar \(calendar); nothing imported "
                + "(import it into another calendar with --calendar, or remove the source first)"
        case .zoneBound(let file, let definitions, let bytes):
            return "\(file): its VTIMEZONE definitions would take the database past its bound of \(definitions) "
                + "definitions (\(bytes >> 10) KiB) in use; nothing imported"
        }
    }
}

/// Each input's `ContentHash`, computed when first asked for. A file whose source is
/// not known synced needs it only for its source row, so its import computes it while the
/// parser thread repairs and scans (16 ms of the 100,000-event file).
final class FileHashes {
    private let inputs: [ImportInput]
    private var hashes: [String?]

    init(_ inputs: [ImportInput]) {
        self.inputs = inputs
        hashes = Array(repeating: nil, count: inputs.count)
    }

    subscript(index: Int) -> String {
        if let hash = hashes[index] { return hash }
        let hash = ContentHash.of(bytes: inputs[index].bytes)
        hashes[index] = hash
        return hash
    }
}

/// A file's content fingerprint: whether an input is byte for byte the one last
/// synchronised (`source.synced_hash`, a live source's body hash). The first 64 bits of
/// its SHA-256, as 16 hex digits.
///
/// SHA-256 because OpenSSL hashes at the CPU's SHA instructions' speed, about twice as
/// fast as the byte-at-a-time FNV-1a used before (each byte waits for the previous one's
/// multiply), which was most of an unchanged re-import and of an import's first,
/// single-threaded moments. A
/// file whose stored hash is the older FNV one simply does not match once: it is
/// imported again, with its unchanged VEVENT blocks skipped, and stored anew.
public enum ContentHash {
    /// The fingerprint of `bytes`, as 16 hex digits.
    public static func of(bytes: [UInt8]) -> String {
        String(SHA256.hexDigest(bytes).prefix(16))
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
