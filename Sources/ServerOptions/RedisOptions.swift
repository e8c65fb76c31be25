import CommandLineKit
import RedisClient
import RedisFeed

/// The options `eventd --publish` and `eventd-web --upstream` share, declared once: the
/// Redis URL's shape, the password file and the key prefix, and how they become a
/// `RedisPublisher.Target` and `FeedKeys`.
public enum RedisOptions {
    /// The option naming the Redis server (`--publish` or `--upstream`): a `redis://` URL,
    /// checked when the arguments are parsed.
    public static func url(_ name: String, help: String, details: String) -> OptionKey<String?> {
        Option.value(name, "URL", help: help + ": redis://[USER@]HOST[:PORT][/DB].",
                     details: details + " No password in the URL: see --redis-password-file.",
                     validation: .custom { text in
                         do { _ = try RedisURL(parsing: text); return nil } catch { return "invalid value for \(name): \(error)" }
                     })
    }

    /// `--redis-password-file PATH`: the only way to give a password.
    public static let passwordFile = Option.value(
        "--redis-password-file", "PATH", help: "Read the Redis password from this file.",
        details: "One line; under systemd, a credential (LoadCredential=) named here as ${CREDENTIALS_DIRECTORY}/NAME.",
        completion: .file())

    /// `--redis-require-auth`: refuse a Redis that answers without a password.
    public static let requireAuth = Option.flag(
        "--redis-require-auth", help: "Refuse a Redis that answers commands without a password.",
        details: "Every connection sends PING before AUTH; without this option such a server is used, with a warning at start.")

    /// `--redis-prefix PREFIX`: the prefix of every key.
    public static let prefix = Option.value("--redis-prefix", "PREFIX", help: "Prefix of the Redis keys (default: eventd:).")

    /// The server, password and keys the arguments name, or nil without `url`; the
    /// password file is read now, so that a missing one stops the program at start.
    /// The other Redis options without `url` are a usage error.
    public static func connection(_ arguments: ParsedArguments, url: OptionKey<String?>)
        throws -> (target: RedisPublisher.Target, keys: FeedKeys)? {
        guard let text = arguments[url] else {
            for other in [passwordFile, prefix] where arguments[other] != nil {
                throw UsageError("\(other.option.name) needs \(url.option.name)")
            }
            if arguments[requireAuth] { throw UsageError("\(requireAuth.option.name) needs \(url.option.name)") }
            return nil
        }
        let password = try arguments[passwordFile].map { path throws(RedisPasswordError) in try RedisPassword.read(path: path) }
        return (RedisPublisher.Target(url: try RedisURL(parsing: text), password: password,
                                      requireAuthentication: arguments[requireAuth]),
                FeedKeys(prefix: arguments[prefix] ?? FeedKeys.defaultPrefix))
    }

    /// The warning for the start's log when the target answers without a password (any
    /// account that reaches it reads and writes the published calendars); nil when it
    /// does not, or cannot be reached now (it is used when it can be, as before).
    public static func openServerWarning(_ target: RedisPublisher.Target) -> String? {
        guard !target.requireAuthentication, let connection = try? target.connect(), connection.acceptsAnyone else { return nil }
        return "Redis at \(target.url) answers commands without a password: any account that reaches it "
            + "reads and writes the published calendars (set requirepass or an ACL user, and --redis-require-auth)"
    }
}
