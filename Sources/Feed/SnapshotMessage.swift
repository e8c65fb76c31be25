import Agenda
import CanonicalJSON
import FeedProtocol
import Synchronization

/// One snapshot message (docs/protocol.md), written in pieces as sockets take them
/// instead of encoded whole: a year-long view's message is tens of megabytes, and its
/// items' JSON already exists (the recomputer's state holds it), so the message is only
/// the items' bytes between a head, separators and a tail.
///
/// Piece `k` is encoded when a queue first needs it and shared with every queue that
/// needs it while any still holds it (a weak cache), and the last few pieces made are
/// kept besides: a socket takes more than a piece per wake-up, so a queue often lets a
/// piece go before the next subscriber in the same round reaches it. Subscribers that
/// read at about the same pace then share each piece's bytes, as they would share a
/// whole message, and the memory of pieces nobody reads any more is gone. Pieces end at item boundaries, so a piece is
/// about `pieceSize` bytes (more when one item is larger). The pieces joined are exactly
/// `Messages.snapshot`'s bytes.
final class SnapshotMessage: Sendable {
    /// About how many bytes a piece holds: a few socket buffers' worth, so that writing a
    /// piece takes a few wake-ups, and the pieces in flight stay small.
    static let defaultPieceSize = 128 * 1024

    /// The whole message's length in bytes.
    let byteCount: Int
    /// How many pieces the message is written in (at least one).
    let pieceCount: Int
    private let source: Source
    private let cache = Mutex(PieceCache())

    /// How many of the pieces made last are kept while no queue holds them.
    static let keptPieces = 4

    private enum Source: Sendable {
        /// Bytes already encoded (a message from elsewhere, or a test's), cut every `size` bytes.
        case bytes([UInt8], size: Int)
        /// A snapshot's sections between the message's head and tail; piece `k` runs from
        /// `cuts[k]` to `cuts[k + 1]` (or the end).
        case sections(SnapshotPieces)
    }

    /// A snapshot of a view at `seq`, encoded piece by piece.
    init(epoch: String, seq: Int64, snapshot: AgendaSnapshot, pieceSize: Int = defaultPieceSize) {
        let pieces = SnapshotPieces(epoch: epoch, seq: seq, snapshot: snapshot, pieceSize: pieceSize)
        byteCount = pieces.byteCount
        pieceCount = pieces.cuts.count
        source = .sections(pieces)
    }

    /// About the size of `snapshot`'s message: its sections and the envelope (type,
    /// digest, epoch, seq, view), which bounds the view's resume history.
    static func size(of snapshot: AgendaSnapshot) -> Int { snapshot.sectionsSize + 256 }

    /// Bytes already encoded, written in pieces of `pieceSize` bytes.
    init(bytes: [UInt8], pieceSize: Int = defaultPieceSize) {
        byteCount = bytes.count
        pieceCount = max(1, (bytes.count + pieceSize - 1) / pieceSize)
        source = .bytes(bytes, size: pieceSize)
    }

    /// Piece `k` (`0..<pieceCount`): the same object for every caller while anyone holds it.
    func piece(_ k: Int) -> SnapshotPiece {
        precondition(k >= 0 && k < pieceCount, "piece \(k) of \(pieceCount)")
        return cache.withLock { cache in
            if let held = cache.held[k]?.piece { return held }
            let made = SnapshotPiece(bytes: encode(k))
            cache.held[k] = WeakPiece(piece: made)
            if cache.recent.count == Self.keptPieces { cache.recent.removeFirst() }
            cache.recent.append(made)
            return made
        }
    }

    /// The whole message (for tests and tools; the feed writes it piece by piece).
    var bytes: [UInt8] {
        var all: [UInt8] = []
        all.reserveCapacity(byteCount)
        for k in 0..<pieceCount { all += piece(k).bytes }
        return all
    }

    private func encode(_ k: Int) -> [UInt8] {
        switch source {
        case .bytes(let bytes, let size):
            return Array(bytes[min(bytes.count, k * size)..<min(bytes.count, (k + 1) * size)])
        case .sections(let pieces):
            return pieces.encode(k)
        }
    }
}

/// One piece of a `SnapshotMessage`, shared by the queues writing it.
final class SnapshotPiece: Sendable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// The pieces of one message that exist: every one any queue holds (weakly), and the
/// last few made (strongly).
private struct PieceCache {
    var held: [Int: WeakPiece] = [:]
    var recent: [SnapshotPiece] = []
}

/// The cache's hold on a piece: it does not keep the piece alive.
private struct WeakPiece {
    weak var piece: SnapshotPiece?
}

/// The daemon's two large messages, written from an `AgendaSnapshot` straight into the
/// line by FeedProtocol's encoders (the other messages are `FeedMessage`'s own).
public enum Messages {
    /// The sections are written straight into the line (reserved once at about its
    /// size), so a year-long view's tens of megabytes exist once, not three times.
    public static func snapshot(epoch: String, seq: Int64, snapshot: AgendaSnapshot) -> [UInt8] {
        FeedMessage.snapshot(digest: snapshot.digest, epoch: epoch, seq: seq, view: snapshot.view.fields,
                             protocolVersion: snapshot.view.digestVersion.rawValue, reserving: snapshot.sectionsSize + 512) { snapshot.writeSections(into: &$0) }
    }

    /// A `diff` message turning the base snapshot into `new`.
    public static func diff(epoch: String, seq: Int64, new: AgendaSnapshot, changes: FeedDiff) -> [UInt8] {
        FeedMessage.diff(epoch: epoch, seq: seq, digest: new.digest, protocolVersion: new.view.digestVersion.rawValue) { w in
            // An inserted section travels with its items: its whole JSON, found once.
            var sectionJSON: [String: [UInt8]] = [:]
            for inserted in changes.sections.inserted {
                if let s = new.sections.first(where: { $0.id == inserted.section.id }) { sectionJSON[s.id] = s.json }
            }
            FeedChanges.write(changes, sectionJSON: { sectionJSON[$0] }, into: &w)
        }
    }
}

extension AgendaSnapshot {
    /// The snapshot in the diff engine's form (ids and canonical JSON contents; a copy
    /// of every item's JSON, for tests and tools).
    public var feedSnapshot: FeedSnapshot {
        get throws {
            try FeedSnapshot(sections: sections.map { s in
                FeedSnapshot.Section(id: s.id, content: s.headerJSON, items: s.items.map { .init(id: $0.id, content: $0.json) })
            })
        }
    }
}
