import Foundation

// eventd-bench: speed measurements on release builds (`make bench`).
// Each subcommand prints `key=value` pairs as its last line.
exit(Bench.main(Array(CommandLine.arguments.dropFirst())))
