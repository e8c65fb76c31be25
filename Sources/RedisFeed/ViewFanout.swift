import FeedProtocol

/// One view's fan-out in a gateway: the stream entries read so far (a bounded tail),
/// and each subscribed client's position. Pure: the reader thread (`RedisUpstream`) feeds
/// it what Redis answered and delivers the lines it returns. A client gets exactly the
/// lines a socket subscriber would: `hello`, then a snapshot (with `resync` first when
/// its resume could not be honoured) or, resuming, the entries after its position; then
/// every entry, in order.
public struct ViewFanout: Sendable {
    /// The view's latest snapshot line and the stream position it stands at.
    public struct Snapshot: Sendable, Equatable {
        public var line: [UInt8]
        public var epoch: String
        public var seq: Int64
        /// The last stream entry at the time it was read: entries up to it are in it.
        public var at: StreamID

        public init(line: [UInt8], epoch: String, seq: Int64, at: StreamID) {
            self.line = line
            self.epoch = epoch
            self.seq = seq
            self.at = at
        }
    }

    /// A subscribed client.
    struct Member: Sendable {
        var epoch: String
        var seq: Int64
        /// Entries up to this one are already in what it got.
        var skipThrough: StreamID
    }

    /// The most entries kept (eventd's `MAXLEN ~ 1024` keeps at least as many).
    public let tailLimit: Int
    /// The most bytes of entries kept (republished snapshots are whole views); the
    /// newest entry is kept whatever its size.
    public let tailBytes: Int
    private(set) var tail: [StreamEntry] = []
    private var tailSize = 0
    /// The diffs of the tail that lead to `head`, under the same bounds: what a resume
    /// replays (FeedProtocol's one rule, `ResumeLog.resolve`, as eventd's hub has it).
    private(set) var log = ResumeLog<StreamEntry>()
    /// The newest state of the view in the tail (a snapshot's or a diff's).
    private(set) var head: FeedPosition?
    /// The last entry read: where the next `XREAD` starts.
    public private(set) var position = StreamID.zero
    var members: [Int: Member] = [:]

    public init(tailLimit: Int = 1024, tailBytes: Int = 64 << 20) {
        self.tailLimit = tailLimit
        self.tailBytes = tailBytes
    }

    /// Clients subscribed now.
    public var memberCount: Int { members.count }

    /// Their ids.
    public var memberIDs: [Int] { Array(members.keys) }

    /// Starts from what Redis holds: the stream's entries (oldest first) and the snapshot
    /// key, read in one transaction.
    public mutating func start(entries: [StreamEntry], at last: StreamID) {
        tail = []
        tailSize = 0
        log.removeAll()
        head = nil
        for entry in entries { keep(entry) }
        position = max(position, last)
    }

    /// Appends to the tail, dropping the oldest past either bound.
    private mutating func keep(_ entry: StreamEntry) {
        tail.append(entry)
        tailSize += entry.line.count
        var drop = 0
        while tail.count - drop > 1 && (tail.count - drop > tailLimit || tailSize > tailBytes) {
            tailSize -= tail[drop].line.count
            drop += 1
        }
        if drop > 0 { tail.removeFirst(drop) }
        let position = FeedPosition(epoch: entry.epoch, seq: entry.seq)
        switch entry.type {
        case .diff:
            // A diff that does not follow on from the head starts the chain again.
            if head.map({ $0.epoch != entry.epoch || $0.seq + 1 != entry.seq }) ?? true { log.removeAll() }
            log.append(seq: entry.seq, size: entry.line.count, entry, policy: retention)
            head = position
        case .snapshot where position != head:
            // A snapshot of another state (eventd restarted, or rebuilt the view): no diff
            // before it leads to it.
            log.removeAll()
            head = position
        default:
            break
        }
    }

    /// The fan-out's retention: its tail's bounds (the tail keeps its newest entry
    /// whatever its size, for the members reading it; the log, as eventd's, does not).
    var retention: RetentionPolicy { RetentionPolicy(maxEntries: tailLimit, maxBytes: tailBytes) }

    /// A client resuming after `resume`: its lines (hello, then the diffs after its
    /// position; none at the head), or nil when the log does not reach back to it (it
    /// needs a snapshot, after `resync`).
    public mutating func resume(_ client: Int, after resume: Request.Resume) -> [[UInt8]]? {
        guard let head else { return nil }
        var lines = [Self.hello(resume.epoch)]
        switch ResumeLog.resolve(resume: resume, head: head, log: log) {
        case .upToDate: break
        case .replay(let diffs): lines += diffs.map(\.value.line)
        case .snapshot: return nil
        }
        members[client] = Member(epoch: head.epoch, seq: head.seq, skipThrough: position)
        return lines
    }

    /// A client starting from `snapshot` (after `resume`, when it asked for one that could
    /// not be honoured): hello, resync when due, the snapshot, the entries read after it.
    public mutating func join(_ client: Int, snapshot: Snapshot, resume: Request.Resume?, hello: Bool = true) -> [[UInt8]] {
        var lines: [[UInt8]] = hello ? [Self.hello(snapshot.epoch)] : []
        if let resume { lines.append(Self.resync(resume.epoch == snapshot.epoch ? .expired : .epoch)) }
        lines.append(snapshot.line)
        var member = Member(epoch: snapshot.epoch, seq: snapshot.seq, skipThrough: snapshot.at)
        for entry in tail where entry.id > snapshot.at { lines += Self.lines(for: entry, member: &member) ?? [] }
        member.skipThrough = max(snapshot.at, position)
        members[client] = member
        return lines
    }

    /// The client is gone.
    public mutating func leave(_ client: Int) { members[client] = nil }

    /// What `XREAD` returned: the lines for each member, and the members that fell out
    /// of step (a gap in the stream: eventd restarted its view, or entries were trimmed
    /// before they were read) and need a fresh snapshot (`join(…, hello: false)`, after
    /// the `resync` line given here).
    public mutating func received(_ entries: [StreamEntry]) -> (lines: [Int: [[UInt8]]], resync: [Int]) {
        var out: [Int: [[UInt8]]] = [:]
        var lost: [Int] = []
        for entry in entries where entry.id > position {
            position = entry.id
            keep(entry)
            for (client, var member) in members where entry.id > member.skipThrough {
                member.skipThrough = entry.id
                if let lines = Self.lines(for: entry, member: &member) {
                    if !lines.isEmpty { out[client, default: []] += lines }
                    members[client] = member
                } else {
                    out[client, default: []].append(Self.resync(.expired))
                    members[client] = nil
                    lost.append(client)
                }
            }
        }
        return (out, lost)
    }

    /// The lines `entry` gives a member at its position (updated), or nil for a gap.
    static func lines(for entry: StreamEntry, member: inout Member) -> [[UInt8]]? {
        switch entry.type {
        case .snapshot:
            // A republished snapshot of the state the member has: nothing new.
            if entry.epoch == member.epoch && entry.seq == member.seq { return [] }
            var lines: [[UInt8]] = []
            if entry.epoch != member.epoch { lines.append(resync(.epoch)) }
            lines.append(entry.line)
            (member.epoch, member.seq) = (entry.epoch, entry.seq)
            return lines
        case .diff:
            if entry.epoch == member.epoch && entry.seq <= member.seq { return [] }
            guard entry.epoch == member.epoch && entry.seq == member.seq + 1 else { return nil }
            member.seq = entry.seq
            return [entry.line]
        default:
            return entry.epoch == member.epoch ? [entry.line] : []
        }
    }

    static func hello(_ epoch: String) -> [UInt8] { Array(FeedMessage.hello(epoch: epoch).dropLast()) }
    static func resync(_ reason: ResyncReason) -> [UInt8] { Array(FeedMessage.resync(reason).dropLast()) }
}
