import Foundation
import Glibc
import CanonicalJSON

/// The reminders already shown, on disk, so that a restart never shows one twice.
/// A key is recorded *before* its notification goes out: a crash between the two loses
/// that one notification rather than repeating it. Entries are kept until a day after
/// their event's start, and at most `capacity` of them.
public struct SentLog {
    public let path: String
    public private(set) var keys: [String: Int64] = [:]
    static let capacity = 10_000

    /// Reads the log at `path` (missing or unreadable: empty; a torn file cannot
    /// happen, it is replaced by rename).
    public init(path: String) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path),
              let file = try? JSONDecoder().decode(File.self, from: data) else { return }
        for e in file.sent {
            if let key = e.key, let start = e.start { keys[key] = start }
        }
    }

    /// The file's shape, decoded once (`record` writes it); an entry without its key or
    /// start is skipped, not the whole log.
    private struct File: Decodable {
        struct Entry: Decodable {
            var key: String?
            var start: Int64?
        }
        var sent: [Entry]
    }

    public var sent: Set<String> { Set(keys.keys) }

    /// Records `reminders` (key and event start) and writes the file; drops entries
    /// whose event began more than a day before `now`.
    public mutating func record(_ entries: [(key: String, start: Int64)], now: Int64) throws {
        for e in entries { keys[e.key] = e.start }
        keys = keys.filter { $0.value >= now - 86_400 }
        if keys.count > Self.capacity {
            keys = Dictionary(uniqueKeysWithValues: keys.sorted { $0.value > $1.value }.prefix(Self.capacity).map { ($0.key, $0.value) })
        }
        var w = JSONWriter(reservingCapacity: 64 + keys.count * 96)
        w.beginObject()
        w.key("sent")
        w.beginArray()
        for (key, start) in keys.sorted(by: { $0.key < $1.key }) {
            w.beginObject()
            w.key("key"); w.string(key)
            w.key("start"); w.int(start)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        try Self.replace(path, with: w.takeBytes() + [10])
    }

    /// Writes to a temporary file in the same directory, syncs it, renames it over `path`.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure("cannot write \(temporary)") }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; let e = POSIXFailure("cannot write \(temporary)"); close(fd); unlink(temporary); throw e }
            offset += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let e = POSIXFailure("cannot replace \(path)")
            unlink(temporary)
            throw e
        }
    }
}

/// A failed system call, with errno's text.
public struct POSIXFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ what: String) { description = "\(what): \(String(cString: strerror(errno)))" }
}
