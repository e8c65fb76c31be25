import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

// File-system and /proc helpers of the reliability tests.

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw RelError("cannot write \(path)")
    }
}

func readText(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

/// Copies a (closed) database file; the copy has no WAL.
func copyDatabase(_ from: String, to: String) throws {
    DatabaseFiles.remove(to)
    try FileManager.default.copyItem(atPath: from, toPath: to)
}

/// Free bytes of the file system holding `path`.
func freeBytes(_ path: String) -> Int {
    var s = statvfs()
    guard statvfs(path, &s) == 0 else { return -1 }
    return Int(s.f_bavail) * Int(s.f_frsize)
}

/// (dev, inode) of a path, nil when absent.
func fileIdentity(_ path: String) -> String? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    return "\(st.st_dev):\(st.st_ino)"
}

func isSocketFile(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
}

/// Number of open descriptors of `pid`.
func processDescriptorCount(_ pid: pid_t) -> Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
}

/// Raises this process's descriptor limit to at least `wanted` (up to the hard limit).
func ensureDescriptorLimit(_ wanted: Int) -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if Int(limit.rlim_cur) < wanted {
        var raised = limit
        raised.rlim_cur = rlim_t(min(Int(limit.rlim_max), wanted))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0, Int(limit.rlim_max) < wanted {
            // Root may raise the hard limit too.
            raised.rlim_max = rlim_t(wanted)
            raised.rlim_cur = rlim_t(wanted)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
        }
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(limit.rlim_cur)
}

/// Size of a file in bytes (0 when absent).
func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}
