import Foundation
import RedisClient
import Testing
import TestSupport

@Suite struct RedisPasswordTests {
    private func file(_ content: [UInt8]) throws -> String {
        let path = DatabaseFiles.scratchPath("redis-password")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        return path
    }

    @Test func oneTrailingLineBreakIsDropped() throws {
        for (content, expected) in [("s3cret\n", "s3cret"), ("s3cret\r\n", "s3cret"), ("s3cret", "s3cret"),
                                    ("two words \n\n", "two words \n")] {
            let path = try file(Array(content.utf8))
            defer { unlink(path) }
            #expect(try RedisPassword.read(path: path).bytes == Array(expected.utf8))
        }
    }

    @Test func itsDescriptionNeverShowsIt() throws {
        let password = RedisPassword(bytes: Array("hunter2".utf8))
        #expect("\(password)" == "<redacted>")
        #expect(String(reflecting: password) == "<redacted>")
    }

    @Test func missingEmptyAndHugeFilesAreRefused() throws {
        #expect(throws: RedisPasswordError.self) { try RedisPassword.read(path: "/nonexistent/redis-password") }
        let empty = try file(Array("\n".utf8))
        defer { unlink(empty) }
        #expect(throws: RedisPasswordError.empty(path: empty)) { try RedisPassword.read(path: empty) }
        let huge = try file([UInt8](repeating: 0x61, count: RedisPassword.maximumLength + 1))
        defer { unlink(huge) }
        #expect(throws: RedisPasswordError.tooLong(path: huge)) { try RedisPassword.read(path: huge) }
    }
}
