import Agenda
import Testing
@testable import Feed

/// What views may cost: idle views make room for new ones (distinct views and items),
/// and a view whose first snapshot would take all views past `maxViewItems` is refused
/// with an error that names the budget, while views already served keep theirs.
@Suite struct FeedHubBudgetTests {
    func subscribe(days: Int) -> String { #"{"op":"subscribe","view":{"days":\#(days)}}"# }

    /// Connects a client and subscribes it to the `days`-day view, whose first snapshot
    /// holds `items` items.
    func watch(_ h: inout HubHarness, days: Int, items: Int) -> ConnectionID {
        let c = h.connect()
        _ = h.kinds(c)
        h.request(c, subscribe(days: days))
        h.publish(HubHarness.view(days: days), seq: 1, diff: false, items: items)
        return c
    }

    @Test func anIdleViewMakesRoomForANewOne() {
        var h = HubHarness { $0.maxViews = 2 }
        let a = watch(&h, days: 1, items: 10)
        _ = watch(&h, days: 2, items: 10)
        // a goes: its view is idle (kept for resume) and makes room for a new one.
        h.handle(.connection(.peerClosed(a)))
        _ = h.takeJobs()
        let c = h.connect()
        _ = h.kinds(c)
        h.request(c, subscribe(days: 3))
        #expect(h.takeJobs() == [.deactivate(HubHarness.view(days: 1)), .activate(HubHarness.view(days: 3))])
        #expect(h.hub.views.count == 2)
        h.publish(HubHarness.view(days: 3), seq: 1, diff: false, items: 10)
        #expect(h.kinds(c) == ["snapshot@1"])
        #expect(h.hub.viewItems == 20)
    }

    @Test func aViewOverTheItemBudgetIsRefusedAndOthersKeepTheirs() throws {
        var h = HubHarness { $0.maxViewItems = 100 }
        let a = watch(&h, days: 1, items: 60)
        #expect(h.kinds(a) == ["snapshot@1"])
        let b = watch(&h, days: 2, items: 50)
        let answer = try #require(h.messages(b).first)
        #expect(answer["code"]?.stringValue == "invalid_view")
        #expect(answer["message"]?.stringValue?.contains("--max-view-items") == true)
        #expect(h.hub.views[HubHarness.view(days: 2)] == nil)
        #expect(h.takeJobs().contains(.deactivate(HubHarness.view(days: 2))))
        #expect(h.hub.viewItems == 60)
        // b's connection stays, and a view within the budget is served.
        h.publish(HubHarness.view(days: 1), seq: 2)
        #expect(h.kinds(a) == ["diff@2"])
        h.request(b, subscribe(days: 4))
        h.publish(HubHarness.view(days: 4), seq: 1, diff: false, items: 40)
        #expect(h.kinds(b) == ["snapshot@1"])
        #expect(h.hub.viewItems == 100)
    }

    @Test func idleViewsGoBeforeANewViewIsRefused() {
        var h = HubHarness { $0.maxViewItems = 100 }
        let a = watch(&h, days: 1, items: 60)
        let b = watch(&h, days: 2, items: 30)
        // a leaves its view for a large one: its old view (idle) is dropped to fit it.
        h.request(a, subscribe(days: 3))
        _ = h.takeJobs()
        h.publish(HubHarness.view(days: 3), seq: 1, diff: false, items: 70)
        #expect(h.kinds(a).last == "snapshot@1")
        #expect(h.takeJobs() == [.deactivate(HubHarness.view(days: 1))])
        #expect(h.hub.viewItems == 100)
        #expect(h.hub.views[HubHarness.view(days: 2)]?.subscribers == [b])
    }
}
