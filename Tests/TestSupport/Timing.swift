import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Clocks and polling shared by every test that waits for a process or a socket. The
// async variants sleep with `Task.sleep` so that many tests can wait at once on a
// two-core machine without tying up the cooperative pool; the blocking variants are
// for tests that run their bodies on their own threads (ReliabilityTests).

/// Seconds on a monotonic clock.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Sleeps without blocking a cooperative thread.
public func pause(_ seconds: Double) async throws {
    try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
}

/// Blocks the calling thread for `seconds` (at most an hour).
public func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    usleep(useconds_t(min(seconds, 3600) * 1_000_000))
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
public func eventually(timeout: Double, every interval: Double = 0.02,
                       _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if try await condition() { return true }
        if monotonicNow() >= deadline { return false }
        try await pause(interval)
    }
}

/// Polls `condition` on the calling (non-cooperative) thread until it holds or
/// `timeout` passes; returns whether it held.
public func waitUntil(timeout: Double, every interval: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if try condition() { return true }
        if monotonicNow() >= deadline { return false }
        sleepSeconds(interval)
    }
}

/// A fresh directory `/tmp/eventd-<prefix>-XXXXXX` (mkdtemp: private and unique).
public func makeTemporaryDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/eventd-\(prefix)-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// VmRSS of `pid`, KiB (nil when it is gone).
public func processResidentKiB(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}

/// VmHWM of `pid`, its peak RSS so far, KiB (nil when it is gone).
public func processPeakResidentKiB(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
}

/// CPU time `pid` has used so far (user and system, from /proc/PID/stat), seconds (nil
/// when it is gone).
public func processCPUSeconds(_ pid: pid_t) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
