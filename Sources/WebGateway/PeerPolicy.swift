/// Which local accounts a loopback listener answers (docs/web-gateway.md, Access): its
/// own, root, and the users and groups `--allow-user` and `--allow-group` name (a
/// reverse proxy's account; the system unit's `eventd` group). Any other account is
/// refused with 403 whatever token it sends: a token is the user's own browsers'
/// credential, and one that leaked (a page on the same port while eventd-web was not
/// holding it) does not make another account the user.
public struct PeerPolicy: Sendable, Equatable {
    /// Accounts answered.
    public var uids: Set<UInt32>
    /// Groups whose members are answered.
    public var gids: Set<UInt32>

    /// A policy answering `uids` (the caller adds its own and root's) and members of `gids`.
    public init(uids: Set<UInt32>, gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// Why a connection from the socket owned by `uid` is refused, or nil when it may
    /// ask. `groups` gives an account's groups (asked only when `gids` is not empty). A
    /// peer whose account could not be found (nil) is refused.
    public func refusal(uid: UInt32?, groups: (UInt32) -> [UInt32]) -> String? {
        guard let uid else { return "the connecting account could not be identified; this dashboard answers only its own account" }
        if uids.contains(uid) { return nil }
        if !gids.isEmpty, groups(uid).contains(where: gids.contains) { return nil }
        return "this dashboard answers only its own account (uid \(uid) is another; see --allow-user)"
    }
}
