import Support

/// SHA-256 fed through a buffer: a snapshot's digest covers thousands of items of a few
/// hundred bytes each (and a comma between them), and one EVP update per piece costs
/// about as much as hashing it. The pieces are copied into `capacity` bytes and hashed
/// a buffer at a time; `state()` is exactly a `SHA256` fed every byte so far.
///
/// A class, not a struct: it owns the buffer (released in `deinit`), and the sections
/// feed it from inside `withUnsafeBytes` closures.
final class BufferedDigest {
    private var sha: SHA256
    private let buffer: UnsafeMutableRawBufferPointer
    private var count = 0

    /// Goes on from `sha` (what was fed before).
    init(continuing sha: SHA256, capacity: Int = 32 << 10) {
        self.sha = sha
        buffer = .allocate(byteCount: capacity, alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// Feeds `bytes`: copied into the buffer, or hashed in place when larger than it.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > buffer.count { flush() }
        if bytes.count >= buffer.count {
            sha.update(bytes)
            return
        }
        (buffer.baseAddress! + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Makes room for `count` more bytes when they would fit in an empty buffer (the
    /// pieces that follow are then copied without a hash between them).
    func reserve(_ count: Int) {
        if count <= buffer.count, self.count + count > buffer.count { flush() }
    }

    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The hasher's state with every byte fed so far (to keep, or to finish).
    func state() -> SHA256 {
        flush()
        return sha
    }

    private func flush() {
        guard count > 0 else { return }
        sha.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        count = 0
    }
}
