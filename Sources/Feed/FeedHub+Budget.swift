import Agenda
import FeedProtocol

extension FeedHub {
    /// Makes room for one more distinct view: views nobody watches (kept for their
    /// grace period, for resume) go first, the longest idle first. Returns whether a
    /// new view now fits within `config.maxViews`.
    mutating func makeRoomForAView() -> Bool {
        while views.count >= config.maxViews {
            guard evictIdleView() else { return false }
        }
        return true
    }

    /// Keeps the items of all views within `config.maxViewItems` once `view`'s first
    /// snapshot is in: idle views go first; if that is not enough, `view` itself is
    /// refused (its subscribers get an `invalid_view` error that names the budget) and
    /// false is returned. Views already served are never taken from their subscribers.
    mutating func enforceItemBudget(admitting view: View) -> Bool {
        while viewItems > config.maxViewItems {
            guard evictIdleView(except: view) else {
                let items = views[view]?.items ?? 0
                refuse(view, "this view holds \(items) items and the daemon's views would hold \(viewItems), over its budget "
                    + "of \(config.maxViewItems) items (--max-view-items); ask for fewer days or calendars")
                return false
            }
        }
        return true
    }

    /// Drops the view without subscribers that has been idle longest; false when every
    /// view (but `kept`) has subscribers.
    private mutating func evictIdleView(except kept: View? = nil) -> Bool {
        var oldest: (view: View, since: Duration)?
        for (view, feed) in views where view != kept && feed.subscribers.isEmpty {
            // (A view never subscribed to counts as idle longest.)
            let since = feed.idleSince?.sinceStart ?? .seconds(Int64.min)
            if oldest.map({ since < $0.since }) ?? true { oldest = (view, since) }
        }
        guard let view = oldest?.view else { return false }
        dropView(view)
        effects.append(.recompute(.deactivate(view)))
        return true
    }

    /// Takes `view` from its subscribers with an `invalid_view` error (their connections
    /// stay open) and drops it.
    mutating func refuse(_ view: View, _ message: String) {
        guard let feed = views[view] else { return }
        for id in feed.subscribers where connections[id]?.subscription.view == view {
            connections[live: id].subscription = .none
            send(FeedMessage.error(.invalidView, message), to: id)
        }
        dropView(view)
        effects.append(.recompute(.deactivate(view)))
    }
}
