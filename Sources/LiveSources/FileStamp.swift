import Glibc

/// What `stat` says of a file that tells whether it may have changed: size,
/// modification time and inode. A file whose stamp is unchanged is not read again.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var inode: UInt64
    var isRegular: Bool
    var isDirectory: Bool

    /// The stamp of `path` now, or nil when there is no file there.
    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        size = Int64(st.st_size)
        modifiedNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        inode = UInt64(st.st_ino)
        isRegular = (st.st_mode & S_IFMT) == S_IFREG
        isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
    }
}
