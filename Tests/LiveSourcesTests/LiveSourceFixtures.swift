import EventStore
import Foundation
import LiveSources
import TestSupport

/// What the live-source tests share: calendars, a source of each kind in a scratch
/// store, and short HTTP limits so that failures come quickly.
enum Fixture {
    /// A calendar of `count` timed events on consecutive days of December 2026.
    static func calendar(_ count: Int, summary: String = "Meeting", extraHeader: [String] = []) -> String {
        let events = (0..<count).map { i in
            "UID:event-\(i)@tests\nDTSTAMP:20261101T000000Z\nDTSTART:202612\(String(format: "%02d", i % 28 + 1))T100000Z\nDTEND:202612\(String(format: "%02d", i % 28 + 1))T110000Z\nSUMMARY:\(summary) \(i)"
        }
        return icsCalendar(events: events.map { $0.split(separator: "\n").map(String.init) }, header: extraHeader)
    }

    /// Limits for tests: a 2 s transfer, 4 MiB bodies.
    static var limits: HTTPLimits {
        var l = HTTPLimits()
        l.connectTimeout = .seconds(2)
        l.totalTimeout = .seconds(2)
        l.maxBodyBytes = 4 << 20
        return l
    }

    /// A URL source named `name` added to `store`.
    static func urlSource(_ store: EventStore, _ url: String, name: String = "web") throws -> LiveSource {
        let source = LiveSource(name: name, kind: .url, location: url, calendar: name, everySeconds: 900)
        try store.addLiveSource(source)
        return source
    }

    /// A fresh temporary directory.
    static func directory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "eventd-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to `path` by writing a temporary file and renaming it over, as
    /// vdirsyncer and editors do.
    static func replace(_ path: String, with text: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.tmp-\(UInt32.random(in: 0...UInt32.max))"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, path) == 0 else { throw HarnessError("rename failed") }
    }
}
