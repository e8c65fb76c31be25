/// The script the motion tests install in the page before an import: it follows the
/// next diff's transition and leaves its findings in `window.motionProbe`.
///
/// - Before the change it notes every item's place, its order and its section's kind,
///   and tags each item's node with an expando (`__probe`).
/// - When the page has applied the diff (`eventd:applied`, the animations just made):
///   every leaving item (a ghost) is still drawn in its old section's kind; then every
///   animation of the page is sought to 120 ms, where no two items of the new snapshot
///   drawn (a new item waits unseen while others pass) may overlap (but two that trade
///   places, whose paths must cross), and put back.
/// - Two frames later it notes which items animate (themselves or their section; on a
///   machine too busy to draw within 200 ms, those of the first frame), and at every
///   frame that leaving items keep their section's kind until gone.
/// - When no animation runs any more: every item whose place changed (or that is new)
///   must have been animating, every kept item must have kept its node, and no ghost
///   may be left.
enum DashboardMotionProbe {
    static let install = #"""
        const items = () => [...document.querySelectorAll('#agenda .item')].filter((n) => n.dataset.id);
        const before = new Map();
        items().forEach((n, i) => {
          before.set(n.dataset.id, { rect: n.getBoundingClientRect(), index: i, kind: n.closest('.section').dataset.kind });
          n.__probe = n.dataset.id;
        });
        const out = { done: false, problems: [], animating: [], changed: [], kept: 0, ghosts: 0, frames: 0 };
        window.motionProbe = out;
        const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
          && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        addEventListener('eventd:applied', () => {
          const now = items();
          const order = new Map(now.map((n, i) => [n.dataset.id, i]));
          const ghosts = [...document.querySelectorAll('.ghosts .item')].filter((n) => before.has(n.dataset.id));
          out.ghosts = ghosts.length;
          const leaving = (label) => {
            for (const g of ghosts) {
              if (!g.isConnected) continue;
              const kind = g.closest('.section')?.dataset.kind, was = before.get(g.dataset.id).kind;
              if (kind !== was) out.problems.push(`${label}: leaving ${g.dataset.id} drawn as ${kind}, was ${was}`);
            }
          };
          leaving('first frame');
          const all = document.getAnimations();
          if (all.length === 0) out.problems.push('first frame: nothing animates');
          const held = all.map((a) => [a, a.currentTime]);
          for (const a of all) { a.pause(); a.currentTime = 120; }
          const at = new Map(now.map((n) => [n.dataset.id, n.getBoundingClientRect()]));
          // A new item waiting unseen (opacity 0) while others pass its place overlaps nothing drawn.
          const drawn = new Set(now.filter((n) => parseFloat(getComputedStyle(n).opacity) > 0.05).map((n) => n.dataset.id));
          leaving('120 ms');
          for (const [a, t] of held) { a.currentTime = t ?? 0; a.play(); }
          for (let i = 0; i < now.length; i++) for (let j = i + 1; j < now.length; j++) {
            const a = now[i].dataset.id, b = now[j].dataset.id;
            if (!drawn.has(a) || !drawn.has(b) || !overlap(at.get(a), at.get(b))) continue;
            const pa = before.get(a), pb = before.get(b);
            if (!(pa && pb && (pa.index < pb.index) !== (order.get(a) < order.get(b)))) out.problems.push(`120 ms: ${a} overlaps ${b}`);
          }
          const animating = () => now.filter((n) => n.getAnimations().length > 0 || n.closest('.section').getAnimations().length > 0)
            .map((n) => n.dataset.id);
          const firstFrame = animating(), t0 = performance.now();
          let frames = 0;
          const frame = () => {
            frames += 1;
            if (frames === 2) {
              // A machine so busy that the second frame comes after 200 ms (the motion
              // lasts 250): what animated at the first frame counts.
              out.late = performance.now() - t0 > 200;
              out.animating = out.late ? firstFrame : animating();
            }
            leaving(`frame ${frames}`);
            if (document.getAnimations().some((a) => a.playState === 'running')) { requestAnimationFrame(frame); return; }
            out.frames = frames;
            for (const n of now) {
              const id = n.dataset.id, was = before.get(id), r = n.getBoundingClientRect();
              if (was) {
                out.kept += 1;
                if (n.__probe !== id) out.problems.push(`${id} has a new node`);
              }
              const changed = !was || Math.abs(r.left - was.rect.left) >= 1 || Math.abs(r.top - was.rect.top) >= 1
                || Math.abs(r.width - was.rect.width) >= 1 || Math.abs(r.height - was.rect.height) >= 1;
              if (!changed) continue;
              out.changed.push(id);
              if (!out.animating.includes(id)) out.problems.push(`${id} changed place but was not animating two frames in`);
            }
            for (const g of ghosts) if (g.isConnected) out.problems.push(`leaving ${g.dataset.id} is still there`);
            out.done = true;
          };
          requestAnimationFrame(frame);
        }, { once: true });
        """#

    /// Holds the next diff's animations at their first frame (`window.heldAnimations`),
    /// for pictures of chosen moments.
    static let hold = """
        window.heldAnimations = null;
        addEventListener('eventd:applied', () => {
          window.heldAnimations = document.getAnimations();
          for (const a of window.heldAnimations) a.pause();
        }, { once: true });
        """
}
