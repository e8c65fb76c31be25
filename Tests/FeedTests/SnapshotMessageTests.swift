import Testing
import Agenda
import EventStore
import ICalendar
import TestSupport
@testable import Feed

/// A snapshot written in pieces must be exactly the message encoded whole, wherever the
/// pieces are cut; the queues writing it share each piece and let it go once written.
@Suite struct SnapshotMessageTests {
    /// Snapshots of random calendars: empty days (placeholders and none), a view with no
    /// sections, items of many sizes.
    static func snapshots(seed: UInt64) throws -> [AgendaSnapshot] {
        let s = try ScratchStore()
        let engine = SnapshotEngine()
        var calendar = RandomAgendaEdits(seed: seed, base: (2026, 11, 26))
        calendar.edit(30)
        _ = try s.store.importCalendars([ImportInput(path: "/t/random.ics", displayName: "random.ics",
                                                     bytes: Array(icsCalendar(events: calendar.events).utf8), calendar: "work")])
        let now = CivilDateTime(date: CivilDate(year: 2026, month: 11, day: 29), hour: 12).secondsAsIfUTC
        let views = [View(timeZone: "Europe/Berlin", from: CivilDate(year: 2026, month: 11, day: 27), days: 9),
                     View(timeZone: "America/New_York", from: nil, pastDays: 1, days: 5, emptyDays: .placeholder),
                     View(timeZone: "UTC", from: CivilDate(year: 2030, month: 1, day: 1), days: 3)]
        return try views.map { try engine.build($0, store: s.store, now: now) }
    }

    @Test(arguments: [UInt64(21), 22, 23])
    func piecesJoinedAreTheWholeMessage(seed: UInt64) throws {
        let snapshots = try Self.snapshots(seed: seed)
        #expect(snapshots.contains { $0.sections.isEmpty })
        #expect(snapshots.contains { !$0.sections.isEmpty })
        for snapshot in snapshots {
            let whole = Messages.snapshot(epoch: "e\"1", seq: 42, snapshot: snapshot)
            for size in [1, 7, 100, 600, 4096, 1 << 20] {
                let message = SnapshotMessage(epoch: "e\"1", seq: 42, snapshot: snapshot, pieceSize: size)
                #expect(message.byteCount == whole.count, "piece size \(size)")
                #expect(message.bytes == whole, "piece size \(size)")
                if size == 1 {
                    // Cut before every item and every section after the first.
                    let items = snapshot.sections.reduce(0) { $0 + max(1, $1.items.count) }
                    #expect(message.pieceCount == max(1, items), "one piece per item")
                }
            }
        }
    }

    @Test func aPieceIsSharedWhileHeldAndGoneOnceReleased() throws {
        let snapshot = try #require(try Self.snapshots(seed: 5).first { $0.sections.count > 2 })
        let message = SnapshotMessage(epoch: "e", seq: 1, snapshot: snapshot, pieceSize: 100)
        let starts = SnapshotPieces(epoch: "e", seq: 1, snapshot: snapshot, pieceSize: 100).starts
        try #require(message.pieceCount > 3 + SnapshotMessage.keptPieces && starts.count == message.pieceCount)
        let held = message.piece(1)
        #expect(message.piece(1) === held, "a second queue shares the piece")
        weak var released: SnapshotPiece?
        do {
            let piece = message.piece(2)
            released = piece
            #expect(piece.bytes == Array(Messages.snapshot(epoch: "e", seq: 1, snapshot: snapshot)[starts[2]..<starts[3]]))
        }
        #expect(released != nil, "kept: one of the last pieces made")
        for k in 3..<(3 + SnapshotMessage.keptPieces) { _ = message.piece(k) }
        #expect(released == nil, "the cache does not keep an older piece no queue holds")
        #expect(message.piece(1) === held)
    }

    @Test func anOutboxWritesASnapshotPieceByPieceAndKeepsItWholeOnceStarted() {
        let line = HubHarness.snapshotLine(seq: 3, padding: 2500)
        var outbox = Outbox()
        outbox.append(Array("{\"type\":\"ok\"}\n".utf8), kind: .answer)
        outbox.append(SnapshotMessage(bytes: line, pieceSize: 1000))
        outbox.append(HubHarness.diffLine(seq: 4), kind: .diff)
        #expect(outbox.retainedBytes == 14 + 1000 + HubHarness.diffLine(seq: 4).count, "one piece held, not the message")
        #expect(outbox.hasUnstartedSnapshot)
        var written: [UInt8] = []
        let ok = 14
        // Write as the loop does: up to the end of a piece that others follow, then tell.
        while !outbox.isEmpty {
            var batch: [UInt8] = []
            var offset = outbox.offset
            for m in outbox.pending {
                batch += m.bytes[offset...].prefix(300 - batch.count)
                offset = 0
                if batch.count == 300 || m.hasMorePieces { break }
            }
            written += batch
            outbox.consume(batch.count)
            if written.count > ok, written.count < ok + line.count {
                // Started: it goes out whole, whatever is dropped.
                #expect(!outbox.hasUnstartedSnapshot)
                var dropped = outbox
                let droppedAny = dropped.dropUnstarted()
                #expect(droppedAny, "the diff behind it is dropped")
                #expect(dropped.pending.count == 1 && dropped.pending.first?.kind == .snapshot)
            }
        }
        #expect(written == Array("{\"type\":\"ok\"}\n".utf8) + line + HubHarness.diffLine(seq: 4))
        #expect(outbox.retainedBytes == 0)
    }
}
