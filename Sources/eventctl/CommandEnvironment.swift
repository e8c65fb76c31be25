import Foundation
import RuntimeDirectories

/// What a command may read from the process: environment, paths, streams.
struct CommandEnvironment {
    var environment: [String: String]
    var database: String?
    var socket: String?

    var paths: RuntimePaths {
        RuntimePaths.resolve(database: database, socket: socket, environment: environment, uid: getuid())
    }
}
