import Diagnostics

extension SourcePlanner.Problem: ExitStatusProviding {
    /// A scheme eventd does not fetch is a usage error (64); a target that is missing
    /// or unusable is missing input (66).
    public var exitStatus: ExitStatus {
        if case .unsupported = self { return .usage }
        return .noInput
    }
}
