import FeedProtocol
import Foundation
import Agenda
import SectionedDiff
import Threads

extension RecomputeWorker {
    func recompute(_ view: View, force: Bool) {
        guard let store else { return }
        let startedWall = clocks.wall()
        let started = clocks.monotonic()
        schedule.recomputed(at: started)
        do {
            let snapshot = try engine.build(view, store: store, now: startedWall.unixSeconds)
            lastDuration = clocks.monotonic() - started
            lastRecompute = startedWall
            problem = nil
            if var state = views[view] {
                guard snapshot.digest != state.snapshot.digest || snapshot.today != state.snapshot.today else {
                    state.snapshot = snapshot
                    views[view] = state
                    return
                }
                let changes = try Self.diff(from: state.snapshot, to: snapshot, change: engine.lastChange)
                if changes.isEmpty {
                    state.snapshot = snapshot
                    views[view] = state
                    return
                }
                state.seq += 1
                seqFloor = max(seqFloor, state.seq)
                state.snapshot = snapshot
                views[view] = state
                let diff = Messages.diff(epoch: epoch, seq: state.seq, new: snapshot, changes: changes)
                output(.published(view, publication(of: snapshot, seq: state.seq, diff: diff)))
                log.info("view \(view.timeZone)/\(view.days)d: seq \(state.seq), \(changes.changeCount) change(s) in \(Int(lastDuration / .milliseconds(1))) ms")
            } else {
                let seq = seqFloor + 1
                seqFloor = seq
                views[view] = ViewState(snapshot: snapshot, seq: seq)
                output(.published(view, publication(of: snapshot, seq: seq, diff: nil)))
                log.info("view \(view.timeZone)/\(view.days)d: first snapshot in \(Int(lastDuration / .milliseconds(1))) ms")
            }
        } catch {
            if views[view] == nil {
                // Never built: nothing good to serve. The daemon itself is fine.
                log.warning("view \(view.timeZone)/\(view.days)d cannot be built: \(error)")
                output(.failed(view, message: "\(error)"))
            } else {
                report("recompute failed for view \(view.timeZone): \(error); serving the last good snapshot")
            }
        }
    }

    /// Answers a `snapshot` request with the state as of now: every import committed
    /// before the request is in it (read-your-writes), even when the coalesced refresh
    /// has not run yet. Active views are brought up to date first, so their
    /// subscribers get the same state as a diff before the asker gets its snapshot.
    func answerOneShot(_ view: View, token: Int) {
        guard let store else {
            output(.oneShot(token: token, message: FeedMessage.error(.invalidView, "the database is not available")))
            return
        }
        let version = (try? store.dataVersion()) ?? -1
        if version != lastDataVersion || views.values.contains(where: { dateChanged($0) }) {
            tick(reason: "snapshot")
        }
        if let state = views[view] {
            output(.oneShot(token: token, message: Messages.snapshot(epoch: epoch, seq: state.seq, snapshot: state.snapshot)))
            return
        }
        // The same window watched under the other protocol: its sections with this
        // protocol's digest, hashed whole (as the message is encoded whole), not a build.
        for other in View.DigestVersion.allCases where other != view.digestVersion {
            var twin = view
            twin.digestVersion = other
            guard var snapshot = views[twin]?.snapshot, let seq = views[twin]?.seq else { continue }
            snapshot.view = view
            snapshot.digest = AgendaSnapshot.digest(of: snapshot.sections, version: view.digestVersion)
            output(.oneShot(token: token, message: Messages.snapshot(epoch: epoch, seq: seq, snapshot: snapshot)))
            return
        }
        do {
            let snapshot = try engine.build(view, store: store, now: clocks.wall().unixSeconds)
            output(.oneShot(token: token, message: Messages.snapshot(epoch: epoch, seq: 0, snapshot: snapshot)))
        } catch {
            output(.oneShot(token: token, message: FeedMessage.error(.invalidView, "\(error)")))
        }
    }

    /// State `seq` of a view for the hub: the diff that leads to it, or (with none, a
    /// first snapshot) the snapshot message; with the sizes its budgets count.
    private func publication(of snapshot: AgendaSnapshot, seq: Int64, diff: [UInt8]?) -> ViewPublication {
        ViewPublication(seq: seq, snapshotMessage: diff == nil ? SnapshotMessage(epoch: epoch, seq: seq, snapshot: snapshot) : nil,
                        diffMessage: diff, snapshotBytes: SnapshotMessage.size(of: snapshot), items: snapshot.itemCount,
                        recomputedAt: lastRecompute, durationMS: lastDuration / .milliseconds(1))
    }
}
