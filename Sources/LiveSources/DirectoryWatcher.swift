import Glibc

/// inotify on the directories of vdir and file sources. Directories, not files, are
/// watched: vdirsyncer and editors replace a file by writing a temporary one and
/// renaming it over the old, which a watch on the old file would not see.
final class DirectoryWatcher {
    /// The inotify descriptor (non-blocking), for `poll`.
    let fd: Int32
    /// Per watch: the sources it serves, each with the one file name it cares about
    /// (a file source) or nil (every name: a vdir).
    private var sources: [Int32: [String: String?]] = [:]
    private var watchOf: [String: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    init() throws(FetchFailure) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw FetchFailure(.unreadable, "inotify: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE
                                       | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)

    /// Watches `directory` for `source` (only `file` in it, when given). Adding it again
    /// is cheap; a directory that was deleted and re-created gets a new watch. Returns
    /// false when the directory cannot be watched (missing).
    @discardableResult
    func watch(_ directory: String, for source: String, file: String? = nil) -> Bool {
        let wd = inotify_add_watch(fd, directory, Self.mask)
        guard wd >= 0 else { return false }
        if let old = watchOf[source], old != wd { forget(source) }
        sources[wd, default: [:]][source] = .some(file)
        watchOf[source] = wd
        return true
    }

    /// Stops serving `source` (the watch goes when no source needs it).
    func forget(_ source: String) {
        guard let wd = watchOf.removeValue(forKey: source) else { return }
        sources[wd]?[source] = nil
        if sources[wd]?.isEmpty == true {
            sources[wd] = nil
            inotify_rm_watch(fd, wd)
        }
    }

    /// Reads every pending event: the sources whose directory changed, and whether the
    /// kernel's queue overflowed (then anything may have changed: rescan everything).
    func drain() -> (changed: Set<String>, overflow: Bool) {
        var changed = Set<String>()
        var overflow = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(n, nameStart + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset = nameStart + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true; continue }
                for (source, file) in sources[wd] ?? [:] {
                    if let file, !name.isEmpty, name != file { continue }
                    changed.insert(source)
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The directory is gone (or unmounted): its watch no longer exists.
                    for source in sources[wd]?.keys ?? [:].keys { watchOf[source] = nil }
                    sources[wd] = nil
                }
            }
        }
        return (changed, overflow)
    }
}
