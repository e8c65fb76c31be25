import Dispatch
import ICalendar
import Digests
import Threads

/// Memory a `BufferedDigest` copies pieces into, released in `deinit`.
///
/// `@unchecked Sendable`: a chunk's bytes are written by the copying thread before it
/// hands a range of them over (the channel orders the writes before the hasher's
/// reads), and later writes go past that range until the chunk is released back.
final class DigestChunk: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        bytes = .allocate(byteCount: capacity, alignment: 64)
    }

    deinit { bytes.deallocate() }
}

/// The other thread of a `BufferedDigest` that hashes elsewhere: it hashes the ranges
/// handed to it in order, takes the state where asked, gives each released chunk back,
/// and at the end returns the states. Bounded: `chunks` chunks exist, so the copying
/// thread waits when it is that far ahead.
///
/// Owned by the copying side only; if that side goes away without `finish`, `deinit`
/// ends the thread.
final class DigestHasher {
    /// A range of a chunk to hash; then a state to take (`mark`: its `noneBefore`), the
    /// chunk to give back (`release`), or the end.
    struct Piece: Sendable {
        var chunk: DigestChunk
        var range: Range<Int>
        var mark: Bool? = nil
        var release = false
        var end = false
    }

    private let pieces: BatchChannel<Piece>
    private let free: BatchChannel<DigestChunk>
    private let done = BatchChannel<(marks: [BufferedDigest.Mark], final: SHA256)>(capacity: 1)
    private var ended = false

    init(start: SHA256, chunks: Int, capacity: Int) {
        let pieces = BatchChannel<Piece>(capacity: 64)
        let free = BatchChannel<DigestChunk>(capacity: chunks)
        for _ in 0..<chunks { free.send(DigestChunk(capacity: capacity)) }
        let done = self.done
        self.pieces = pieces
        self.free = free
        DispatchQueue.global(qos: .userInitiated).async {
            var sha = start
            var marks: [BufferedDigest.Mark] = []
            while true {
                let piece = pieces.receive()
                if !piece.range.isEmpty { sha.update(UnsafeRawBufferPointer(rebasing: piece.chunk.bytes[piece.range])) }
                if let noneBefore = piece.mark { marks.append((sha, noneBefore)) }
                if piece.end {
                    done.send((marks, sha))
                    return
                }
                if piece.release { free.send(piece.chunk) }
            }
        }
    }

    deinit {
        // Dropped before `finish`: the thread must not wait for pieces forever.
        if !ended { pieces.send(Piece(chunk: DigestChunk(capacity: 0), range: 0..<0, end: true)) }
    }

    /// A chunk to fill (waits while every chunk is in flight).
    func takeChunk() -> DigestChunk { free.receive() }

    func hand(_ piece: Piece) { pieces.send(piece) }

    /// Hands the last piece over and waits for the states.
    func finish(_ last: Piece) -> (marks: [BufferedDigest.Mark], final: SHA256) {
        var last = last
        last.end = true
        ended = true
        pieces.send(last)
        return done.receive()
    }
}
