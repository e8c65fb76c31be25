import Foundation

/// The "now" of the benchmarks: their calendars are generated around 2026-11-29 12:00
/// UTC, and the eventd and eventctl they start must see that day as today.
///
/// Release builds ignore `EVENTD_FAKE_NOW` (`AgendaClock`), so the processes' clock is
/// moved from outside, by libfaketime (Debian's `faketime`, installed by `make deps`)
/// preloaded into them: a relative offset in seconds, so the moved clock runs at normal
/// speed and no time zone takes part in reading it; the monotonic clock is left alone,
/// so intervals and timers stay real. The multi-threaded build of the library, because
/// eventd runs several threads.
enum BenchClock {
    /// 2026-11-29T12:00:00Z.
    static let start: Int64 = 1_795_953_600

    /// Adds to `environment` what moves a started process's wall clock to `start`.
    static func move(_ environment: inout [String: String]) throws {
        let library = try libraryPath()
        let offset = start - Int64(Date().timeIntervalSince1970)
        let preload = environment["LD_PRELOAD"].map { "\(library) \($0)" } ?? library
        environment["LD_PRELOAD"] = preload
        environment["FAKETIME"] = offset >= 0 ? "+\(offset)" : "\(offset)"
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        // Without this variable libfaketime's constructor makes a shared segment and
        // setenv()s its name, which moves `environ`; a Swift program started that way was
        // seen to get no arguments at all (the runtime finds argv next to the original
        // environment). Names of no segment keep it from that; only a `faketime` parent
        // process shares its clock through the segment, and there is none here.
        environment["FAKETIME_SHARED"] = "eventd-bench-none eventd-bench-none"
        // Debug builds (the tests') read this instead; it names the same moment.
        environment["EVENTD_FAKE_NOW"] = "\(start)"
    }

    /// libfaketime's multi-threaded library, in the multiarch directory of this machine.
    static func libraryPath() throws -> String {
        let lib = "/usr/lib"
        let found = (try? FileManager.default.contentsOfDirectory(atPath: lib))?.sorted().lazy
            .map { "\(lib)/\($0)/faketime/libfaketimeMT.so.1" }
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let found else {
            throw BenchError("libfaketime is missing (Debian's faketime package: make deps installs it)")
        }
        return found
    }
}
