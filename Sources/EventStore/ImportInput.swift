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
