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

    /// Creates an input.
    public init(path: String, displayName: String, bytes: [UInt8], calendar: String) {
        self.path = path
        self.displayName = displayName
        self.bytes = bytes
        self.calendar = calendar
    }
}
