import ICalendar

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
