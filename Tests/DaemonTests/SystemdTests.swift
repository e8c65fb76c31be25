import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `NOTIFY_SOCKET` stand-in: a Unix datagram socket that records what arrives.
// @unchecked: one test owns a listener and drains it from one task at a time.
final class NotifyListener: @unchecked Sendable {
    let fd: Int32
    let path: String
    private(set) var messages: [(time: Double, text: String)] = []
    /// Datagrams that carried the kernel's arrival stamp (all of them, when it works).
    private(set) var stamped = 0

    init(path: String) throws {
        self.path = path
        fd = try UnixSocket.bindDatagram(path)
        // The kernel stamps each datagram as it arrives, so a test task that drains late
        // (a loaded machine, parallel suites) does not make the daemon's pings look late.
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Reads whatever datagrams are waiting; each is recorded at its arrival, on the
    /// monotonic clock (the kernel's wall-clock stamp, less how long it waited).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var control = [UInt64](repeating: 0, count: 16)
        while true {
            var stamp: timespec?
            let n = buffer.withUnsafeMutableBytes { data -> Int in
                control.withUnsafeMutableBytes { cmsg -> Int in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { iov -> Int in
                        var header = msghdr(msg_name: nil, msg_namelen: 0, msg_iov: iov, msg_iovlen: 1,
                                            msg_control: cmsg.baseAddress, msg_controllen: cmsg.count, msg_flags: 0)
                        let got = recvmsg(fd, &header, Int32(MSG_DONTWAIT))
                        if got > 0 { stamp = Self.arrival(cmsg, length: Int(header.msg_controllen)) }
                        return got
                    }
                }
            }
            guard n > 0 else { return }
            var time = monotonicNow()
            if let stamp {
                stamped += 1
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                let waited = Double(now.tv_sec - stamp.tv_sec) + Double(now.tv_nsec - stamp.tv_nsec) / 1e9
                if waited >= 0, waited < 60 { time -= waited }
            }
            messages.append((time, String(decoding: buffer[0..<n], as: UTF8.self)))
        }
    }

    /// The `SCM_TIMESTAMPNS` stamp among the control messages (Linux's layout: a
    /// `cmsghdr` of length, level and type, then the data, each 8-byte aligned).
    private static func arrival(_ control: UnsafeMutableRawBufferPointer, length: Int) -> timespec? {
        var offset = 0
        while offset + 16 <= length {
            let cmsgLength = control.load(fromByteOffset: offset, as: Int.self)
            let level = control.load(fromByteOffset: offset + 8, as: Int32.self)
            let type = control.load(fromByteOffset: offset + 12, as: Int32.self)
            guard cmsgLength >= 16 else { return nil }
            if level == SOL_SOCKET, type == SO_TIMESTAMPNS, offset + 16 + MemoryLayout<timespec>.size <= length {
                return control.load(fromByteOffset: offset + 16, as: timespec.self)
            }
            offset += (cmsgLength + 7) & ~7
        }
        return nil
    }

    /// Times at which a datagram carried the assignment `line` (e.g. `WATCHDOG=1`).
    func times(of line: String) -> [Double] {
        drain()
        return messages.filter { $0.text.split(separator: "\n").contains(Substring(line)) }.map(\.time)
    }

    func wait(for line: String, timeout: Double) async throws -> Double? {
        var found: Double?
        _ = try await eventually(timeout: timeout, every: 0.01) {
            found = times(of: line).first
            return found != nil
        }
        return found
    }
}

@Suite(.timeLimit(.minutes(1)))
struct SystemdTests {
    @Test func socketActivationServesThePassedSocket() async throws {
        let activator = "/usr/bin/systemd-socket-activate"
        guard FileManager.default.isExecutableFile(atPath: activator) else {
            print("SKIPPED socketActivationServesThePassedSocket: \(activator) is not installed (Debian package systemd)")
            return
        }
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar([TestEvent("s@x", "20261130T100000Z", "20261130T110000Z", "Activated")]))
            let env = daemon.daemonEnvironment()
            // systemd-socket-activate passes on only a few variables; the rest with -E.
            let args = ["-l", daemon.socketPath, "-E", "EVENTD_FAKE_NOW=\(env["EVENTD_FAKE_NOW"]!)", "-E", "TZ=UTC",
                        DaemonHarness.eventd] + daemon.daemonArguments()
            let output = daemon.logPath
            let activatorPID = try daemon.spawnOther(activator, args, environment: env, output: output)
            let listening = try await eventually(timeout: 5) { LifecycleTests.fileType(daemon.socketPath) == S_IFSOCK }
            try #require(listening, "systemd-socket-activate did not create \(daemon.socketPath): \(daemon.log)")
            var client: FeedClient?
            _ = try await eventually(timeout: 5, every: 0.05) {
                client = try? await daemon.connect()
                return client != nil
            }
            let connected = try #require(client, "no hello on the activated socket; log:\n\(daemon.log)")
            #expect(connected.hello["protocol"] == 1)
            let snapshot = try await connected.request(["op": "snapshot", "view": DaemonHarness.weekView])
            #expect(snapshot["type"] == "snapshot")
            #expect(try await daemon.waitForLog("a socket from systemd", timeout: 3), "log:\n\(daemon.log)")

            kill(activatorPID, SIGTERM)
            let exit = try await daemon.waitOther(activatorPID, timeout: 5)
            #expect(exit == .exited(0), "eventd (exec'd by systemd-socket-activate) on SIGTERM: \(exit.map { "\($0)" } ?? "still running")")
        }
    }

    @Test func sdNotifyReadyWatchdogStopping() async throws {
        try await DaemonHarness.with { daemon in
            let listener = try NotifyListener(path: daemon.directory + "/notify.sock")
            try await daemon.start(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"])
            let ready = try await listener.wait(for: "READY=1", timeout: 5)
            #expect(ready != nil, "no READY=1; got \(listener.messages.map(\.text))")
            let firstPing = try await listener.wait(for: "WATCHDOG=1", timeout: 1.5)
            // Counted from READY=1, not from the spawn: starting a process on a loaded
            // machine is not what this measures.
            #expect(firstPing != nil && ready != nil && firstPing! - ready! < 1.5, "no WATCHDOG=1 within ~1 s of READY=1")

            // WATCHDOG_USEC=1 s: pings at about half that, never as late as the deadline.
            let watchUntil = monotonicNow() + 2.5
            while monotonicNow() < watchUntil {
                listener.drain()
                try await pause(0.01)
            }
            let pings = listener.times(of: "WATCHDOG=1")
            let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
            #expect(pings.count >= 4, "\(pings.count) watchdog pings in ~3 s")
            #expect(listener.stamped == listener.messages.count, "datagrams without the kernel's arrival stamp")
            #expect((gaps.max() ?? 99) < 0.9, "watchdog gaps \(gaps.map { String(format: "%.2f", $0) }) s; systemd kills at 1 s")

            daemon.signal(SIGTERM)
            let stopping = try await listener.wait(for: "STOPPING=1", timeout: 3)
            #expect(stopping != nil, "no STOPPING=1; got \(listener.messages.map(\.text))")
            #expect(try await daemon.waitForExit(timeout: 5) == .exited(0))
        }
    }
}
