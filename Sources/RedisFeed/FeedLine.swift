import FeedProtocol

/// One feed message of a published view, as a socket subscriber receives it, with the
/// snapshot line of the state after it (the snapshot key is written in the same
/// transaction as the message's stream entry).
public struct FeedLine: Sendable, Equatable {
    /// The message's kind: `snapshot`, `diff` or `heartbeat`.
    public var type: FeedMessage.Kind
    public var epoch: String
    public var seq: Int64
    /// The exact NDJSON line (without its `\n`).
    public var line: [UInt8]
    /// The snapshot line of the state `seq` (the line itself for a snapshot); nil for a
    /// heartbeat, which changes no state.
    public var snapshot: [UInt8]?
    /// The feed protocol of the line (which digest it carries; its stream entry says so).
    public var protocolVersion: Int64

    /// Creates a line.
    public init(type: FeedMessage.Kind, epoch: String, seq: Int64, line: [UInt8], snapshot: [UInt8]?, protocolVersion: Int64 = 1) {
        self.protocolVersion = protocolVersion
        self.type = type
        self.epoch = epoch
        self.seq = seq
        self.line = line
        self.snapshot = snapshot
    }
}
