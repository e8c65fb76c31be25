import CLinux
import Dispatch
import Foundation
import Glibc
import Synchronization

/// The fan-out benchmark's subscribers, read the way a lean client would: split over
/// two threads (the machine's two cores), each with its own epoll set and one reusable
/// buffer, so that at 10,000 subscribers the figure is the daemon's, not the client's.
struct FanoutReaders {
    /// The subscribers' connected sockets.
    let descriptors: [Int32]
    /// Threads reading at once.
    var threads = 2

    /// Reads every socket until each has delivered a whole line containing `marker`;
    /// returns, per socket, the monotonic time it did (the order of `descriptors`).
    func waitForAll(marker: [UInt8], timeout: Double) throws -> [Double] {
        let needle = marker
        let deadline = Bench.now() + timeout
        let results = Mutex<[Int: [Double]]>([:])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        let parts = partitions()
        for (index, part) in parts.enumerated() {
            let fds = part.map { descriptors[$0] }
            group.enter()
            let thread = Thread {
                do {
                    let times = try Self.read(fds, needle: needle, deadline: deadline)
                    results.withLock { $0[index] = times }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                group.leave()
            }
            thread.name = "bench-reader-\(index)"
            thread.start()
        }
        group.wait()
        if let failure = failures.withLock({ $0.first }) { throw BenchError(failure) }
        var times = [Double](repeating: 0, count: descriptors.count)
        results.withLock { done in
            for (index, part) in parts.enumerated() {
                for (k, i) in part.enumerated() { times[i] = done[index]![k] }
            }
        }
        return times
    }

    /// Indices of `descriptors`, dealt round-robin to the threads.
    private func partitions() -> [[Int]] {
        let count = max(1, min(threads, descriptors.count))
        return (0..<count).map { t in Array(stride(from: t, to: descriptors.count, by: count)) }
    }

    /// One thread's work: epoll over its sockets, one buffer, a marker matcher each.
    private static func read(_ fds: [Int32], needle: [UInt8], deadline: Double) throws -> [Double] {
        let epoll = epoll_create1(eventd_epoll_cloexec)
        guard epoll >= 0 else { throw BenchError("epoll_create1 failed") }
        defer { close(epoll) }
        for (i, fd) in fds.enumerated() {
            var event = epoll_event()
            event.events = eventd_epollin
            event.data.u64 = UInt64(i)
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
        }
        var matchers = [MarkerMatcher](repeating: MarkerMatcher(), count: fds.count)
        var done = [Double](repeating: 0, count: fds.count)
        var remaining = fds.count
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while remaining > 0 {
            guard Bench.now() < deadline else { throw BenchError("timed out: \(remaining) subscribers still waiting") }
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), 100) }
            guard n > 0 else { continue }
            for e in events[0..<Int(n)] {
                let i = Int(e.data.u64)
                let got = buffer.withUnsafeMutableBytes { recv(fds[i], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard got > 0 else {
                    if got == 0 { throw BenchError("a subscriber's connection closed") }
                    continue
                }
                if done[i] == 0, buffer.withUnsafeBufferPointer({ matchers[i].scan($0[0..<got], for: needle) }) {
                    done[i] = Bench.now()
                    remaining -= 1
                    // Nothing more is wanted from it in this phase.
                    epoll_ctl(epoll, EPOLL_CTL_DEL, fds[i], nil)
                }
            }
        }
        return done
    }
}

/// Finds the end of the first line that contains a marker, across reads, with
/// `memchr`/`memmem` (a 5 MB snapshot to each of 10,000 subscribers is 50 GB to scan),
/// keeping only the marker's length of the line read so far.
struct MarkerMatcher {
    /// The end of the current line's bytes so far (at most the marker's length - 1),
    /// for a marker split between two reads.
    private var carry: [UInt8] = []
    private var sawMarker = false

    /// Scans `bytes`; true once a whole line containing `needle` has been seen.
    mutating func scan(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, for needle: [UInt8]) -> Bool {
        guard let base = bytes.base.baseAddress else { return false }
        var position = bytes.startIndex
        let end = bytes.endIndex
        while position < end {
            let newline = memchr(base + position, 10, end - position)
                .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? end
            if !sawMarker { sawMarker = contains(needle, base: base, from: position, to: newline) }
            if newline == end {
                remember(base: base, from: position, to: end, keep: needle.count - 1)
                return false
            }
            if sawMarker { return true }
            carry.removeAll(keepingCapacity: true)
            position = newline + 1
        }
        return false
    }

    /// Whether the line so far (the carry, then `base[from..<to]`) holds `needle`.
    private func contains(_ needle: [UInt8], base: UnsafePointer<UInt8>, from: Int, to: Int) -> Bool {
        if !carry.isEmpty {
            // Across the boundary: the carry plus the first bytes of this segment.
            let joined = carry + UnsafeBufferPointer(start: base + from, count: min(needle.count - 1, to - from))
            if Self.find(needle, in: joined) { return true }
        }
        return needle.withUnsafeBytes { n in
            eventd_memmem(base + from, to - from, n.baseAddress, n.count) != nil
        }
    }

    private mutating func remember(base: UnsafePointer<UInt8>, from: Int, to: Int, keep: Int) {
        let segment = UnsafeBufferPointer(start: base + from, count: to - from)
        carry.append(contentsOf: segment.suffix(keep))
        if carry.count > keep { carry.removeFirst(carry.count - keep) }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { h in
            needle.withUnsafeBytes { n in eventd_memmem(h.baseAddress, h.count, n.baseAddress, n.count) != nil }
        }
    }
}
