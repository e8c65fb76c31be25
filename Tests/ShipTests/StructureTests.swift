import Foundation
import Testing
import TestSupport

/// The tree's shape, as the one-core design left it: what a reviewer would count by
/// hand is counted here, so that it holds after the next feature too. Each pattern is
/// also tried on a made-up input, so that a check can fail.
@Suite struct StructureTests {
    static let root = Products.repositoryRoot

    /// Every `.swift` file under `directory`, as (relative path, text).
    static func swiftFiles(_ directory: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(directory)
        let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map {
            ("\(directory)/\($0)", try String(contentsOf: base.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// One test framework: swift-testing.
    @Test func testsUseOneFramework() throws {
        let xctest = try Self.swiftFiles("Tests").filter { Self.importsXCTest($0.text) }.map(\.path)
        #expect(xctest.isEmpty, "XCTest in \(xctest)")
        #expect(Self.importsXCTest("import Foundation\nimport XCTest\n"))
        #expect(!Self.importsXCTest("import Testing\n"))
    }

    static func importsXCTest(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix("import XCTest") || $0.hasPrefix("@testable import XCTest") }
    }

    /// No stray outputs at the root: every file there is one the project means to keep.
    @Test func noEmptyFilesAtTheRoot() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
        let empty = names.filter { name in
            var isDirectory: ObjCBool = false
            let path = Self.root.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
            return ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0
        }
        #expect(empty.isEmpty, "empty files at the root: \(empty)")
    }

    /// No code past the edge reads a payload by string key.
    @Test func payloadsAreNotReadByKeyPastTheEdge() throws {
        let edge = ["Sources/FeedProtocol/", "Sources/CanonicalJSON/", "Sources/CommandLineKit/"]
        let reads = try Self.swiftFiles("Sources").filter { file in !edge.contains { file.path.hasPrefix($0) } }
            .flatMap { file in Self.keyedReads(file.text).map { "\(file.path): \($0)" } }
        #expect(reads.count <= 5, "\(reads.count) string-keyed payload reads outside FeedProtocol:\n\(reads.joined(separator: "\n"))")
        #expect(Self.keyedReads(#"let s = json["summary"]?.stringValue"#).count == 1)
        #expect(Self.keyedReads(#"let h = environment["HOME"]"#).isEmpty)
    }

    static func keyedReads(_ text: String) -> [String] {
        let pattern = /\["[A-Za-z_]+"\]\??\.(stringValue|boolValue|intValue|doubleValue|objectValue|arrayValue)/
        return text.split(separator: "\n").filter { $0.contains(pattern) }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Times are typed (issue 54): a function's or init's parameter named like a time is
    /// a `MonotonicInstant`, a `WallInstant` or a `Duration`; `Double` seconds only at the
    /// few edges that parse or print them.
    @Test func timeIsTyped() throws {
        let found = try Self.swiftFiles("Sources").flatMap { file in Self.secondsParameters(file.text).map { "\(file.path): \($0)" } }
        #expect(found.count <= 5, "\(found.count) time-named Double parameters:\n\(found.joined(separator: "\n"))")
        #expect(Self.secondsParameters("    func wait(until deadline: Double, now: Double) -> Bool {") == ["deadline", "now"])
        #expect(Self.secondsParameters("    init(now: MonotonicInstant, limit: Double) {").isEmpty)
        #expect(Self.secondsParameters("    var timeout: Double = 10").isEmpty)
    }

    /// The names of a declaration's `Double` parameters that are named like a time.
    static func secondsParameters(_ text: String) -> [String] {
        let name = /(seconds|interval|timeout|deadline|delay|now|period|elapsed|age|since|until|backoff|time|at)/.ignoresCase()
        let parameter = /(\w+)\s*:\s*Double\b/
        return text.split(separator: "\n").filter { $0.contains("func ") || $0.contains("init(") }.flatMap { line in
            line.matches(of: parameter).map { String($0.output.1) }.filter { $0.contains(name) }
        }
    }

    /// eventctl's error table names no daemon or gateway module.
    @Test func eventctlsErrorTableImportsNoDaemonModule() throws {
        let imports = try Self.swiftFiles("Sources/CommandErrors").flatMap { file in
            file.text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
        }
        let daemon: Set<String> = ["Feed", "Reactor", "WebGateway", "RedisFeed", "RedisClient", "RedisRelay"]
        #expect(Set(imports).isDisjoint(with: daemon), "CommandErrors imports \(Set(imports).intersection(daemon).sorted())")
    }
}
