import Diagnostics
import Foundation
import Testing
import TestSupport

/// Issue 31's package on this machine, end to end: `make deb`, `apt-get install` it,
/// use it as the `eventd` user with the Swift toolchain out of reach, upgrade to the same
/// binaries packed as a higher version, remove (the data stays), purge (data and user
/// go). Leaves the machine as it was: it refuses to start where eventd is installed, and
/// purges the package whatever happens.
@Suite(.serialized, .enabled(if: DebianMachine.dpkg != nil, "dpkg is not installed: skipping the Debian package test"))
struct PackageTests {
    static let database = "/var/lib/eventd/events.db"
    static let enableLink = "/etc/systemd/system/sockets.target.wants/eventd.socket"
    static let webEnableLink = "/etc/systemd/system/sockets.target.wants/eventd-web.socket"
    static let upstreamEnableLink = "/etc/systemd/system/sockets.target.wants/eventd-web-upstream.socket"

    /// What the eventd user sees of the system database: its calendars and a fixed week of
    /// its agenda (the sample calendars' first week of December 2026).
    static func contents() throws -> (calendars: ProcessResult, agenda: ProcessResult) {
        let calendars = try DebianMachine.withoutToolchain(["/usr/bin/eventctl", "--db", database, "calendars"], asUser: "eventd")
        let agenda = try DebianMachine.withoutToolchain(["/usr/bin/eventctl", "--db", database, "agenda", "--from", "2026-12-07",
                                                         "--days", "7", "--tz", "Europe/Berlin"], asUser: "eventd")
        return (calendars, agenda)
    }

    @Test(.enabled(if: DebianMachine.isRoot, "needs root: it installs, upgrades and purges the package on this machine"),
          .timeLimit(.minutes(40)))
    func installUseUpgradeRemovePurge() throws {
        let root = Products.repositoryRoot
        try #require(try !DebianMachine.packagePresent("eventd") && !DebianMachine.userExists("eventd")
                     && !DebianMachine.exists("/var/lib/eventd"),
                     "eventd is installed here already (package, user or /var/lib/eventd): purge it first (apt-get purge eventd)")

        // The package, as `make deb` builds it (with lintian), and the same binaries packed
        // as a higher version for the upgrade.
        let swift = Products.which("swift", preferring: [DebianMachine.toolchain + "/usr/bin"]) ?? "swift"
        let make = try DebianMachine.run("/usr/bin/make", ["-C", root.path, "--no-print-directory", "deb", "SWIFT=\(swift)"],
                                         timeout: 2400)
        try #require(make.succeeded, "make deb failed:\n\(make.stdout.suffix(4000))\(make.stderr.suffix(4000))")
        let tags = make.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        print("package test: lintian: " + (tags.isEmpty ? "no errors, no warnings" : tags.joined(separator: "\n")))
        let arch = try ChildProcess.runBlocking("/usr/bin/dpkg", ["--print-architecture"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let version = ProductVersion.number, next = ProductVersion.number + "+1"
        let first = root.appendingPathComponent("eventd_\(version)_\(arch).deb").path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("package-test-\(UUID().uuidString)")
        defer {
            if (try? DebianMachine.packagePresent("eventd")) != false {
                _ = try? DebianMachine.run("/usr/bin/apt-get", ["purge", "-y", "-q", "eventd"])
            }
            try? FileManager.default.removeItem(at: scratch)
        }
        // gzip -1 instead of xz: 4 s instead of a minute, and only this machine reads it.
        let repack = try DebianMachine.run(root.appendingPathComponent("scripts/build-deb.sh").path,
                                           [next, root.appendingPathComponent(".build-static/multicall").path, scratch.path],
                                           environment: ["DPKG_DEB_COMPRESSOR_TYPE": "gzip", "DPKG_DEB_COMPRESSOR_LEVEL": "1"])
        try #require(repack.succeeded, "repacking as \(next) failed:\n\(repack.stderr.suffix(4000))")
        let second = scratch.appendingPathComponent("eventd_\(next)_\(arch).deb").path

        // Install: the user, its private state directory, eventd.socket enabled and
        // eventd-web left alone; nothing listens on the network.
        let install = try DebianMachine.run("/usr/bin/apt-get", ["install", "-y", "-q", first])
        try #require(install.succeeded, "apt-get install failed:\n\(install.stdout)\(install.stderr)")
        #expect(try DebianMachine.packageStatus("eventd") == "install ok installed")
        #expect(DebianMachine.userExists("eventd") && DebianMachine.groupExists("eventd"))
        #expect(DebianMachine.owner("/var/lib/eventd").map { "\($0.user) \(String($0.mode, radix: 8))" } == "eventd 700")
        // deb-systemd-helper links to /lib/systemd/system/, the same file on merged-/usr.
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: Self.enableLink))?
                    .hasSuffix("lib/systemd/system/eventd.socket") == true, "eventd.socket is not enabled")
        #expect(URL(fileURLWithPath: Self.enableLink).resolvingSymlinksInPath().path == "/usr/lib/systemd/system/eventd.socket")
        #expect(!DebianMachine.exists(Self.webEnableLink), "eventd-web.socket must not be enabled")
        #expect(!DebianMachine.exists(Self.upstreamEnableLink), "eventd-web-upstream.socket must not be enabled")
        for path in ["/usr/lib/systemd/system/eventd.service", "/usr/lib/systemd/system/eventd-web.socket",
                     "/usr/lib/systemd/system/eventd-web-upstream.service", "/usr/lib/systemd/system/eventd-web-upstream.socket",
                     "/usr/lib/systemd/user/eventd.socket", "/usr/lib/systemd/user/eventctl-remind.service",
                     "/usr/lib/sysusers.d/eventd.conf", "/usr/lib/tmpfiles.d/eventd.conf",
                     "/usr/share/man/man1/eventctl.1.gz", "/usr/share/eventd/web/index.html",
                     "/usr/share/bash-completion/completions/eventctl", "/usr/share/zsh/vendor-completions/_eventctl",
                     "/usr/share/fish/vendor_completions.d/eventctl.fish", "/usr/share/doc/eventd/copyright",
                     // What README points to: the status bars' files, the protocol and its client.
                     "/usr/share/doc/eventd/statusbar/waybar-config.jsonc", "/usr/share/doc/eventd/statusbar/waybar-style.css",
                     "/usr/share/doc/eventd/statusbar/i3bar.md", "/usr/share/doc/eventd/protocol.md",
                     "/usr/share/doc/eventd/feed_client.py"] {
            #expect(DebianMachine.exists(path), "\(path) is not installed")
        }
        // One multi-call binary (the runtime, Foundation and ICU once): at most 64 MiB installed.
        let size = try DebianMachine.run("/usr/bin/dpkg-query", ["-W", "-f=${Installed-Size}", "eventd"]).stdout
        print("package test: Installed-Size \(size) KiB")
        #expect((Int(size) ?? .max) <= 64 * 1024, "Installed-Size \(size) KiB")
        for link in ["/usr/bin/eventctl", "/usr/bin/eventd-web"] {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "eventd", "\(link) is not a link to eventd")
        }
        let unit = try String(contentsOfFile: "/usr/lib/systemd/system/eventd.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/eventd\n"))
        if DebianMachine.systemdRuns {
            #expect(try DebianMachine.run("/usr/bin/systemctl", ["is-active", "eventd.socket"]).stdout == "active\n")
            #expect(try DebianMachine.run("/usr/bin/systemctl", ["is-active", "eventd-web.socket"]).stdout != "active\n")
        } else {
            print("package test: systemd is not running here: checked that eventd.socket is enabled, not that it listens")
        }

        // The binaries: only Debian's libraries, and they run with the toolchain hidden
        // (where the development build cannot: proof that it is hidden).
        for program in ["eventd", "eventctl", "eventd-web"] {
            let libraries = try DebianMachine.sharedLibraries("/usr/bin/\(program)")
            #expect(libraries.unresolved.isEmpty, "\(program): \(libraries.unresolved)")
            #expect(!libraries.resolved.isEmpty)
            for library in libraries.resolved {
                #expect(!library.hasPrefix(DebianMachine.toolchain), "\(program) loads \(library)")
                #expect(try DebianMachine.owningPackage(library) != nil, "\(program) loads \(library), which no package owns")
            }
            let r = try DebianMachine.withoutToolchain(["/usr/bin/\(program)", "--version"])
            #expect(r.stdout == "\(program) \(version)\n", "\(program) --version without \(DebianMachine.toolchain): \(r.exit) \(r.stderr)")
        }
        if FileManager.default.fileExists(atPath: DebianMachine.toolchain) {
            let dynamic = try DebianMachine.withoutToolchain([Products.eventctl, "--version"])
            #expect(!dynamic.succeeded, "the development eventctl ran without \(DebianMachine.toolchain): it is not hidden")
        }

        // The eventd user imports into the system database and reads its agenda.
        for calendar in ["team", "holidays"] {
            let ics = try [UInt8](Data(contentsOf: root.appendingPathComponent("sample-calendars/\(calendar).ics")))
            let imported = try DebianMachine.withoutToolchain(["/usr/bin/eventctl", "--db", Self.database, "import", "-",
                                                               "--calendar", calendar], asUser: "eventd", stdin: ics)
            #expect(imported.succeeded, "import \(calendar): \(imported.stderr)")
        }
        let before = try Self.contents()
        #expect(before.calendars.succeeded && before.calendars.stdout.contains("team") && before.calendars.stdout.contains("holidays"),
                "\(before.calendars.stdout)\(before.calendars.stderr)")
        #expect(before.agenda.succeeded && before.agenda.stdout.split(separator: "\n").count > 3,
                "\(before.agenda.stdout)\(before.agenda.stderr)")
        #expect(DebianMachine.owner(Self.database).map { "\($0.user) \(String($0.mode, radix: 8))" } == "eventd 600")
        print("package test: the eventd user's agenda:\n\(before.agenda.stdout)")
        // Release builds ignore EVENTD_FAKE_NOW (AgendaClock): the packaged eventctl's first
        // date is the real today, not the one the variable names.
        let today = { () -> String in
            let f = DateFormatter()
            (f.locale, f.timeZone, f.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "UTC"), "yyyy-MM-dd")
            return f.string(from: Date())
        }
        let todayBefore = today()
        let moved = try DebianMachine.withoutToolchain(["EVENTD_FAKE_NOW=2001-02-03T10:00:00Z", "/usr/bin/eventctl", "--db",
                                                        Self.database, "agenda", "--days", "1", "--tz", "UTC", "--json",
                                                        "--empty-days", "placeholder"], asUser: "eventd")
        #expect(moved.succeeded && !moved.stdout.contains("2001-02-03")
                && [todayBefore, today()].contains { moved.stdout.contains("\"date\":\"\($0)\"") },
                "EVENTD_FAKE_NOW moved a release build's clock: \(moved.stdout.prefix(300))\(moved.stderr)")

        // Upgrade: the events are still there. Where systemd runs, a running eventd is
        // restarted on the new binaries.
        var daemonPID = ""
        if DebianMachine.systemdRuns {
            try DebianMachine.run("/usr/bin/systemctl", ["start", "eventd.service"])
            daemonPID = try DebianMachine.run("/usr/bin/systemctl", ["show", "-P", "MainPID", "eventd.service"]).stdout
        }
        let upgrade = try DebianMachine.run("/usr/bin/apt-get", ["install", "-y", "-q", second])
        try #require(upgrade.succeeded, "apt-get install (upgrade) failed:\n\(upgrade.stdout)\(upgrade.stderr)")
        #expect(try DebianMachine.packageVersion("eventd") == next)
        let after = try Self.contents()
        #expect(after.calendars.stdout == before.calendars.stdout)
        #expect(after.agenda.stdout == before.agenda.stdout)
        #expect(DebianMachine.exists(Self.enableLink) && !DebianMachine.exists(Self.webEnableLink))
        if DebianMachine.systemdRuns {
            let restarted = try DebianMachine.run("/usr/bin/systemctl", ["show", "-P", "MainPID", "eventd.service"]).stdout
            #expect(restarted != daemonPID && restarted != "0\n", "eventd.service was not restarted by the upgrade")
        }

        // Remove keeps the data and the user; purge takes them, and the enable link.
        let remove = try DebianMachine.run("/usr/bin/apt-get", ["remove", "-y", "-q", "eventd"])
        #expect(remove.succeeded, "\(remove.stdout)\(remove.stderr)")
        #expect(try DebianMachine.packageStatus("eventd") == "deinstall ok config-files")
        #expect(!DebianMachine.exists("/usr/bin/eventctl"))
        #expect(DebianMachine.exists(Self.database) && DebianMachine.userExists("eventd"))

        let purge = try DebianMachine.run("/usr/bin/apt-get", ["purge", "-y", "-q", "eventd"])
        #expect(purge.succeeded, "\(purge.stdout)\(purge.stderr)")
        #expect(try !DebianMachine.packagePresent("eventd"))
        #expect(!DebianMachine.exists("/var/lib/eventd"))
        #expect(!DebianMachine.userExists("eventd") && !DebianMachine.groupExists("eventd"))
        #expect(!DebianMachine.exists(Self.enableLink))
    }
}
