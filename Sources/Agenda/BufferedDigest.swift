import Digests

/// SHA-256 fed through a buffer: a snapshot's digest covers thousands of items of a few
/// hundred bytes each (and a comma between them), and one EVP update per piece costs
/// about as much as hashing it. The pieces are copied into a chunk of memory and hashed
/// a chunk at a time, either here or, for a large digest, on another thread
/// (`DigestHasher`): this thread then only copies, and the copying (about a sixth of a
/// 5.6 MB digest's time) overlaps the hashing instead of adding to it.
///
/// `mark` takes the state at a point (before each date, for `ViewMemo`'s kept states)
/// and `finish` returns those states and the last one: exactly a `SHA256` fed every
/// byte up to each point, wherever it was hashed.
///
/// Noncopyable: one writer owns the chunk being filled and, when hashing elsewhere, the
/// other thread's hand-over.
struct BufferedDigest: ~Copyable {
    typealias Mark = (sha: SHA256, noneBefore: Bool)

    /// Hashing here: every byte flushed so far.
    private var sha: SHA256
    private var chunk: DigestChunk
    /// Bytes written into `chunk`, and of them those handed to the other thread.
    private var count = 0
    private var sent = 0
    /// Hashing here: the states `mark` took.
    private var marks: [Mark] = []
    private let hasher: DigestHasher?

    /// Hashes here, going on from `sha` (what was fed before).
    init(continuing sha: SHA256, capacity: Int = 32 << 10) {
        self.sha = sha
        chunk = DigestChunk(capacity: capacity)
        hasher = nil
    }

    /// Hashes on another thread, going on from `sha`; `chunks` of `capacity` bytes are
    /// in flight at most.
    init(continuing sha: SHA256, hashingElsewhereIn chunks: Int, of capacity: Int = 256 << 10) {
        self.sha = sha
        let hasher = DigestHasher(start: sha, chunks: chunks, capacity: capacity)
        chunk = hasher.takeChunk()
        self.hasher = hasher
    }

    /// Feeds `bytes`: copied into the chunk; when larger than a chunk, hashed in place
    /// (here) or copied a chunk at a time (elsewhere: the caller's bytes may not live
    /// until the other thread reads them).
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, !bytes.isEmpty else { return }
        let capacity = chunk.bytes.count
        if count + bytes.count > capacity { flush() }
        if bytes.count >= capacity, hasher == nil {
            sha.update(bytes)
            return
        }
        var left = bytes.count
        while left > 0 {
            let n = min(left, capacity - count)
            (chunk.bytes.baseAddress! + count).copyMemory(from: base, byteCount: n)
            count += n
            base += n
            left -= n
            if left > 0 { flush() }
        }
    }

    /// Makes room for `count` more bytes when they would fit in an empty chunk (the
    /// pieces that follow are then copied without a hash between them).
    mutating func reserve(_ count: Int) {
        if count <= chunk.bytes.count, self.count + count > chunk.bytes.count { flush() }
    }

    /// Feeds `count` bytes that `write` puts at the pointer it is given (and returns how
    /// many it wrote, `count`): written straight into the chunk when they fit in one.
    mutating func update(count: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        let capacity = chunk.bytes.count
        guard count <= capacity else {
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { $1 = write($0.baseAddress!) }
            update(bytes)
            return
        }
        if self.count + count > capacity { flush() }
        let written = write((chunk.bytes.baseAddress! + self.count).bindMemory(to: UInt8.self, capacity: count))
        precondition(written == count, "wrote \(written) of \(count) bytes")
        self.count += count
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds one byte (the comma between items).
    mutating func update(byte: UInt8) {
        if count == chunk.bytes.count { flush() }
        chunk.bytes[count] = byte
        count += 1
    }

    /// Takes the state with every byte fed so far (returned by `finish`, in order).
    mutating func mark(noneBefore: Bool) {
        if let hasher {
            hasher.hand(DigestHasher.Piece(chunk: chunk, range: sent..<count, mark: noneBefore))
            sent = count
        } else {
            flush()
            marks.append((sha, noneBefore))
        }
    }

    /// The states `mark` took, and the state with every byte fed.
    consuming func finish() -> (marks: [Mark], final: SHA256) {
        guard let hasher else {
            flush()
            return (marks, sha)
        }
        return hasher.finish(DigestHasher.Piece(chunk: chunk, range: sent..<count))
    }

    /// Hashing here: the state with every byte fed so far (to keep, or to finish).
    mutating func state() -> SHA256 {
        precondition(hasher == nil, "a digest hashed elsewhere has its states from mark and finish")
        flush()
        return sha
    }

    /// Hashes the chunk's bytes (here), or hands them over and takes a free chunk.
    private mutating func flush() {
        guard count > 0 else { return }
        if let hasher {
            hasher.hand(DigestHasher.Piece(chunk: chunk, range: sent..<count, release: true))
            chunk = hasher.takeChunk()
            sent = 0
        } else {
            sha.update(UnsafeRawBufferPointer(rebasing: chunk.bytes[..<count]))
        }
        count = 0
    }
}
