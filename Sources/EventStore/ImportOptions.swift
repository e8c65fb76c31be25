/// Options of an import run.
public struct ImportOptions: Sendable {
    /// Make each target calendar hold exactly the events of this run's files.
    public var replace = false
    /// Treat any warning as a failure (nothing is written).
    public var strict = false
    /// Skip parsing VEVENT blocks stored unchanged (plain runs only). Off only in tests
    /// that compare an incremental import with a full one.
    var reuseUnchangedBlocks = true

    /// Creates options (both off by default).
    public init(replace: Bool = false, strict: Bool = false) {
        self.replace = replace
        self.strict = strict
    }
}
