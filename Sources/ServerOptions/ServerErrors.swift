import CommandErrors
import Diagnostics
import Feed
import Reactor
import RedisClient
import WebGateway

extension ErrorTable {
    /// eventd's and eventd-web's table: the shared rows, and those of the errors only a
    /// server throws. Kept here, beside the options both servers share, so that the
    /// shared table (and with it eventctl) depends on no daemon or gateway module.
    public static let servers = ErrorTable(adding: { error in
        switch error {
        // A socket or a service that cannot be set up or reached; a program that cannot
        // poll its sockets cannot offer its service either.
        case is SocketSetupError, is ListenError, is FeedConnector.Unavailable, is ReactorError, is RedisError:
            return .unavailable
        // The dashboard's files, or the Redis password file, are missing.
        case is StaticAssets.LoadError, is RedisPasswordError: return .noInput
        // A bad `--publish`/`--upstream` value.
        case is RedisURLError: return .usage
        default: return nil
        }
    })
}
