import RedisClient
import Testing

@Suite struct RedisURLTests {
    @Test func defaultsArePort6379AndDatabase0() throws {
        let url = try RedisURL(parsing: "redis://cache.example")
        #expect(url == RedisURL(user: nil, host: "cache.example", port: 6379, database: 0))
        #expect(url.description == "redis://cache.example:6379/0")
    }

    @Test func everyPartIsRead() throws {
        let url = try RedisURL(parsing: "redis://eventd@10.0.0.7:6380/3")
        #expect(url == RedisURL(user: "eventd", host: "10.0.0.7", port: 6380, database: 3))
        #expect(url.description == "redis://eventd@10.0.0.7:6380/3")
    }

    @Test func ipv6HostsAreBracketed() throws {
        let url = try RedisURL(parsing: "redis://[::1]:7000/")
        #expect(url.host == "::1")
        #expect(url.port == 7000)
        #expect(url.database == 0)
        #expect(url.description == "redis://[::1]:7000/0")
        #expect(try RedisURL(parsing: "redis://[fe80::1]").port == 6379)
    }

    /// A password in the URL would end up in process listings and logs: refused, and the
    /// message names the file option rather than echoing the URL.
    @Test func aPasswordInTheURLIsRefused() {
        #expect(throws: RedisURLError.passwordInURL) { try RedisURL(parsing: "redis://user:secret@host") }
        #expect(throws: RedisURLError.passwordInURL) { try RedisURL(parsing: "redis://:secret@host:6379/0") }
        #expect(!RedisURLError.passwordInURL.description.contains("secret"))
        #expect(RedisURLError.passwordInURL.description.contains("--redis-password-file"))
    }

    @Test func malformedURLsAreRefused() {
        for text in ["http://host", "redis:/host", "redis://", "redis://host:0", "redis://host:65536", "redis://host:x",
                     "redis://host/db", "redis://host/-1", "redis://@host", "redis://host?db=1", "redis://ho st",
                     "redis://[::1", "redis://[::1]x", "redis://host:"] {
            #expect(throws: RedisURLError.self, "\(text)") { try RedisURL(parsing: text) }
        }
        #expect(throws: RedisURLError.notRedisScheme) { try RedisURL(parsing: "rediss://host") }
    }
}
