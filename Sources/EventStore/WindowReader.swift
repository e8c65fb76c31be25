import ICalendar
import Threads

/// A store's second, read-only connection, on which a large window scan reads its
/// longest span classes and joins the window's recurring masters to their overrides on
/// another thread, while the store's own connection scans the rest of the window index
/// (`seriesFingerprints(fromMinute:...)`).
///
/// With only the join here, the store's connection was the longer side (by half, in a
/// whole build of the bench's 30-day view), so the classes from
/// `SpanClass.secondConnectionFrom` on are read here as well.
///
/// The two connections read in separate transactions; this one's rows are used only
/// when both read the same change log position (`ChangeLogPosition`), else the store's
/// connection reads them again itself. Every write to what a fingerprint is made of
/// logs a change, so the same position means the same rows.
///
/// Checked by hand, `@unchecked Sendable`: the connection is used by one thread at a
/// time. The scan hands the reader to its helper thread and touches it again only after
/// joining that thread.
final class WindowReader: @unchecked Sendable {
    private let db: Connection

    /// A row of a window scan or of the join, as a fingerprint reads it.
    struct WindowRow: Sendable {
        var calendarID: Int64
        var uid: String
        var id: Int64
        var hash: UInt64

        /// The row as `EventColumns.WindowFingerprint`.
        init(_ row: Row) {
            typealias Column = EventColumns.WindowFingerprint
            calendarID = row.int(Column.calendarID)
            uid = row.text(Column.uid)
            id = row.int(Column.id)
            hash = EventStore.hexHash(row, Column.contentHash.rawValue)
        }
    }

    /// What the second connection read (the window rows of its span classes, then the
    /// overrides), and the change log position it read at (nil: no log, so the rows
    /// cannot be matched to the store's transaction).
    struct SecondPart: Sendable {
        var position: ChangeLogPosition?
        var windowRows: [WindowRow]
        var overrides: [WindowRow]
    }

    /// Opens `path` read-only; `mmapBytes` as the store's own connection.
    init(path: String, mmapBytes: Int) throws {
        db = try Connection(path: path, readOnly: true, mmapBytes: mmapBytes)
    }

    /// The window rows of span `classes` in `[fromMinute, toMinute)`, and the overrides
    /// of the recurring masters that can occur there, read in one read transaction with
    /// its change log position.
    func read(classes: some Sequence<Int>, fromMinute: Int64, toMinute: Int64) throws -> SecondPart {
        try db.inReadTransaction {
            let position = try EventStore.changeLogPosition(db)
            typealias Column = EventColumns.WindowFingerprint
            var windowRows: [WindowRow] = []
            try EventStore.forEachRowInWindow(db, Column.self, fromMinute: fromMinute, toMinute: toMinute, classes: classes) {
                windowRows.append(WindowRow($0))
            }
            var overrides: [WindowRow] = []
            try EventStore.forEachOverrideOfWindowMasters(db, fromMinute: fromMinute, toMinute: toMinute) {
                overrides.append(WindowRow($0))
            }
            return SecondPart(position: position, windowRows: windowRows, overrides: overrides)
        }
    }
}

extension EventStore {
    /// Starts the second connection's part of a window scan of `[fromMinute, toMinute)`
    /// (`SpanClass.secondPart`, then the override join) on another thread, when the last
    /// window scan was large (`parallelWindowRows`); nil when not (or when the connection
    /// cannot be opened: the caller reads it all itself).
    func startSecondPart(fromMinute: Int64, toMinute: Int64) -> WorkerThread<Result<WindowReader.SecondPart, any Error>>? {
        guard lastWindowRows >= parallelWindowRows, !windowReaderRetired else { return nil }
        if windowReader == nil {
            windowReader = try? WindowReader(path: db.path, mmapBytes: db.mmapBytes)
        }
        guard let reader = windowReader else { return nil }
        return WorkerThread(name: "eventd-window") {
            Result { try reader.read(classes: SpanClass.secondPart, fromMinute: fromMinute, toMinute: toMinute) }
        }
    }

    /// What a finished second part read, when it is of the state this connection reads
    /// now (the same change log position); nil when the caller must read it itself.
    func accepted(_ finished: Result<WindowReader.SecondPart, any Error>) throws -> WindowReader.SecondPart? {
        switch finished {
        case .success(let part):
            guard let theirs = part.position, let ours = try changeLogPosition(), theirs == ours else { return nil }
            return part
        case .failure:
            // A second connection that fails (a file replaced under it, say) is opened again next time.
            windowReader = nil
            return nil
        }
    }
}
