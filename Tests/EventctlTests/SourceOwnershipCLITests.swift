import Foundation
import Testing
import TestSupport

/// `eventctl source` and what others brought (issue 51): a directory of sources is added
/// whole or not at all, and a source never takes over, or removes, imported events.
@Suite struct SourceOwnershipCLITests {
    static func event(_ uid: String, _ summary: String, sequence: Int = 0) -> String {
        "UID:\(uid)\nDTSTAMP:20260101T000000Z\nDTSTART:20270601T090000Z\nDTEND:20270601T100000Z\nSEQUENCE:\(sequence)\nSUMMARY:\(summary)"
    }

    /// A vdirsyncer-style directory: one subdirectory (one calendar) per name.
    static func collections(_ cli: CLIRunner, _ names: [String]) throws -> String {
        let root = cli.directory.appendingPathComponent("calendars").path
        for name in names {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            _ = cli.file("calendars/\(name)/\(name).ics", calendar(event("\(name)@vdir", "from \(name)")))
        }
        return root
    }

    @Test func aCollidingNameLeavesNothingOfTheDirectoryRegistered() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let first = cli.file("outlook.ics", calendar(Self.event("o@x", "outlook")))
        #expect(try cli.run(["source", "add", first]).status == 0)
        let root = try Self.collections(cli, ["conference", "outlook", "team"])
        let add = try cli.run(["source", "add", root])
        #expect(add.status == 65, "\(add.stdout)\(add.stderr)")
        #expect(add.stderr.contains("\"outlook\"") && add.stdout.isEmpty, "\(add.stderr)")
        let list = try cli.run(["source", "list"]).stdout
        #expect(list.hasPrefix("outlook:") && !list.contains("conference") && !list.contains("team:"), "\(list)")
        let calendars = try cli.run(["calendars"]).stdout
        #expect(!calendars.contains("conference") && !calendars.contains("team"), "\(calendars)")
        // Without the collision the same directory is added whole.
        #expect(try cli.run(["source", "remove", "outlook"]).status == 0)
        #expect(try cli.run(["source", "add", root]).status == 0)
        #expect(try cli.run(["source", "list"]).stdout.components(separatedBy: " -> calendar ").count == 4)
    }

    @Test func aSourceNeverTakesOverOrRemovesImportedEvents() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let imported = cli.file("conference.ics", calendar(Self.event("talk@x", "imported talk"), Self.event("keynote@x", "keynote")))
        #expect(try cli.run(["import", imported]).status == 0)
        // A vdir of the same calendar name holding a newer version of one imported event.
        let root = cli.directory.appendingPathComponent("vdir/conference").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = cli.file("vdir/conference/a.ics", calendar(Self.event("talk@x", "the source's talk", sequence: 3), Self.event("own@x", "own")))
        let add = try cli.run(["source", "add", root])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("1 added") && add.stdout.contains("1 event kept"), "\(add.stdout)")
        let export = try cli.run(["export", "--calendar", "conference"]).stdout
        #expect(export.contains("SUMMARY:imported talk") && !export.contains("the source's talk"), "\(export)")
        let remove = try cli.run(["source", "remove", "conference"])
        #expect(remove.status == 0 && remove.stdout.contains("(1 event)"), "\(remove.stdout)\(remove.stderr)")
        #expect(remove.stderr.contains("warning: calendar conference keeps 2 events"), "\(remove.stderr)")
        let after = try cli.run(["export", "--calendar", "conference"]).stdout
        #expect(after.contains("SUMMARY:imported talk") && after.contains("SUMMARY:keynote") && !after.contains("UID:own@x"), "\(after)")
        // Importing the source's own file into its calendar would hand the source the
        // import's events: refused while the source exists.
        #expect(try cli.run(["source", "add", root]).status == 0)
        let again = try cli.run(["import", root + "/a.ics", "--calendar", "conference"])
        #expect(again.status == 65 && again.stderr.contains("read by source conference"), "\(again.stderr)")
    }
}
