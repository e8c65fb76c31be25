import Foundation
import EventStore

/// A file's identity: it changes when the file is replaced, even by one of the same name.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

extension RecomputeWorker {
    func openStore() throws {
        let path = config.databasePath
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o750])
        }
        // A database created here is private to its owner (0600, and so are its WAL files).
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        // No memory map: the daemon's resident size stays small; the page cache is enough.
        store = try EventStore(path: path, mmapBytes: 0)
        try store?.db.execute("PRAGMA cache_size = -8192")
        try store?.loadAllZones()
        lastDataVersion = -1
        fileIdentity = FileIdentity(path: path)
        walIdentity = FileIdentity(path: path + "-wal")
        shmIdentity = FileIdentity(path: path + "-shm")
    }

    /// SIGHUP: reopen the database and recompute every view.
    func reopen() {
        log.notice("SIGHUP: reopening the database \(config.databasePath)")
        // A file replaced since the last tick: first take our WAL/shm away from the new
        // file. Then close before opening, so that the new connection shares nothing
        // (SQLite's per-file state) with the old one.
        checkFileReplaced()
        store = nil
        do {
            try openStore()
            engine.reset()
            fileProblem = nil
            problem = nil
        } catch { report("cannot reopen \(config.databasePath): \(error)") }
        for view in Array(views.keys) { recompute(view, force: true) }
        publishInfo()
    }

    /// The database file replaced or removed under us: keep serving the last good
    /// snapshots and say so; SIGHUP reopens it.
    func checkFileReplaced() {
        guard fileProblem == nil, let known = fileIdentity else { return }
        let now = FileIdentity(path: config.databasePath)
        guard now != known else { return }
        let message = "the database \(config.databasePath) was \(now == nil ? "removed" : "replaced"); serving the last good snapshots until SIGHUP"
        fileProblem = message
        log.error(message)
        detachStaleFiles()
        publishInfo()
    }

    /// While we hold the old database open, its WAL and shared-memory files stay at
    /// `PATH-wal`/`PATH-shm`, next to whatever file is at PATH now: any connection that
    /// opens the new file (eventctl, or we on SIGHUP) would read our WAL frames as its
    /// own and corrupt it. So when those names are still ours: checkpoint our committed
    /// frames into our own file (which may have been moved elsewhere, and then keeps
    /// them), and take the names away. Our connection keeps its descriptors and serves on.
    func detachStaleFiles() {
        let path = config.databasePath
        if let wal = walIdentity, FileIdentity(path: path + "-wal") == wal {
            do { try store?.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") } catch { log.warning("checkpoint before detaching \(path)-wal: \(error)") }
            unlink(path + "-wal")
        }
        if let shm = shmIdentity, FileIdentity(path: path + "-shm") == shm {
            unlink(path + "-shm")
        }
        walIdentity = nil
        shmIdentity = nil
    }
}
