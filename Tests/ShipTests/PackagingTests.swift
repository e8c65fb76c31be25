import Diagnostics
import Foundation
import Testing

/// What `make deb` relies on without building it (PackageTests builds and installs it):
/// one version, the units debian/rules names, and README's install-first shape.
@Suite struct PackagingTests {
    @Test func theMakefileReadsTheVersionThatVersionPrints() throws {
        let r = try Ship.run("/usr/bin/make", ["-s", "--no-print-directory", "-C", Ship.repositoryRoot.path, "version"])
        #expect(r.stdout == ProductVersion.number + "\n", "make version: \(r.stdout)\(r.stderr)")
    }

    @Test func debianRulesNamesTheUnitsOfSystemd() throws {
        let rules = try Ship.read("debian/rules")
        let named = Set(rules.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            .filter { $0.hasPrefix("eventd") && ($0.hasSuffix(".service") || $0.hasSuffix(".socket")) }
            .map(String.init))
        let units = Set(SystemdUnitTests.units + SystemdUnitTests.systemOnlyUnits)
        #expect(named == units, "debian/rules handles \(named.sorted()), systemd/ has \(units.sorted())")
    }

    @Test func readmeStartsWithInstallAndStaysShort() throws {
        let readme = try Ship.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 400, "README.md has \(lines.count) lines")
        let sections = lines.filter { $0.hasPrefix("## ") }
        #expect(sections.first == "## Install", "README's first section: \(sections.first ?? "none")")
        #expect(readme.contains("make deb && sudo apt install ./eventd_*.deb"))
        #expect(readme.contains("systemctl enable --now eventd.socket"))
        // Every relative link leads to a file of the repository, never beside it.
        let root = Ship.repositoryRoot.standardizedFileURL.path
        for link in readme.split(separator: "](").dropFirst().compactMap({ $0.split(separator: ")").first }) {
            let target = String(link.split(separator: "#").first ?? "")
            guard !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
            let path = Ship.source(target).standardizedFileURL.path
            #expect(path.hasPrefix(root + "/") && FileManager.default.fileExists(atPath: path), "README links to \(target)")
        }
    }
}
