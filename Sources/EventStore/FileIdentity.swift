import Foundation

/// The identity of a file (device and inode): tells a file replaced at the same path
/// from the one that was there.
public struct FileIdentity: Hashable, Sendable {
    /// The device the file is on (`st_dev`).
    public var device: UInt64
    /// Its inode number (`st_ino`).
    public var inode: UInt64

    /// The identity of the file at `path` now, or nil when there is none.
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
