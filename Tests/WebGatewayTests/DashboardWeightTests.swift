import Foundation
import Testing
@testable import WebGateway
import TestSupport

/// The page's script stays small, counted as the browser receives it: eventd-web serves
/// the files gzipped (StaticAssets, best compression), so the budget is the gzip size of
/// every JavaScript file of web/ together, with a bound on the raw bytes for sanity.
@Suite struct DashboardWeightTests {
    static let gzipBudget = 24_000
    static let rawBound = 90_000

    @Test func thePagesScriptIsUnder24KBGzipped() throws {
        let web = Products.repositoryRoot.appendingPathComponent("web")
        let names = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { $0.hasSuffix(".js") }.sorted()
        let files = try names.map { Array(try Data(contentsOf: web.appendingPathComponent($0))) }
        let raw = files.reduce(0) { $0 + $1.count }
        let together = try #require(StaticAssets.gzip(files.flatMap { $0 }))
        // What the wire carries, file by file (each is its own response).
        let each = try files.reduce(0) { $0 + (try #require(StaticAssets.gzip($1))).count }
        print("DashboardWeightTests: \(names.count) scripts, \(raw) bytes, \(together.count) gzipped together, \(each) file by file")
        #expect(names.count >= 8 && together.count <= Self.gzipBudget && raw <= Self.rawBound,
                "\(raw) bytes, \(together.count) gzipped, in \(names)")
    }
}
