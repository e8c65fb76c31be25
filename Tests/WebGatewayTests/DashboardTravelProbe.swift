/// The script DashboardTravelTests installs before a change: it records every animation
/// frame of the next diff's transition and leaves its findings in `window.travelProbe`.
///
/// - Every item and heading kept across the change (same element) and in view after it
///   must lie on every frame inside the box spanned by its old and new places (8 px), and
///   on some frame at least half its displacement away from its new place (it travelled,
///   not popped); those whose old place was off screen are counted.
/// - A moving card's effective opacity (its own and its ancestors') is recorded on every
///   frame, and no motion copy (`[aria-hidden="true"]`) may hold a moving card's id.
/// - An inserted item's drawn size against its layout size is recorded on every frame,
///   and each pair of a moving card and a drawn new one that overlap is counted.
enum DashboardTravelProbe {
    static let install = #"""
        const selector = '#agenda .item[data-id], #agenda .section > .heading';
        const keyOf = (n) => n.dataset.id ?? 'heading ' + n.parentNode.dataset.date;
        const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const inView = (b) => b[3] > 0 && b[1] < innerHeight && b[2] > 0 && b[0] < innerWidth && b[2] > b[0];
        const old = new Map([...document.querySelectorAll(selector)].map((n) => [keyOf(n), { node: n, box: box(n) }]));
        const opacity = (n) => { let o = 1; for (; n; n = n.parentElement) o *= parseFloat(getComputedStyle(n).opacity); return o; };
        const overlap = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;
        const out = window.travelProbe = { done: false, frames: 0, problems: [], kept: 0, checked: 0, offPath: 0, travelled: 0,
          offscreenTravelled: 0, movers: 0, minMoverOpacity: 1, inserted: 0, minInsertScale: 1, crossingPairs: [] };
        addEventListener('eventd:applied', () => {
          const now = [...document.querySelectorAll(selector)];
          const kept = now.filter((n) => old.get(keyOf(n))?.node === n), fresh = now.filter((n) => n.dataset.id && !old.has(keyOf(n)));
          out.kept = kept.length; out.inserted = fresh.length;
          const frames = [], movers = new Set(), pairs = new Set();
          const record = () => {
            frames.push(kept.map(box));
            const moving = kept.filter((n) => n.dataset.id && n.getAnimations().some((a) => a.playState === 'running'
              && String(a.effect.getKeyframes()[0]?.transform ?? '').includes('translate')));
            for (const n of moving) { movers.add(n.dataset.id); out.minMoverOpacity = Math.min(out.minMoverOpacity, opacity(n)); }
            for (const g of document.querySelectorAll('[aria-hidden="true"] .item[data-id]')) {
              if (movers.has(g.dataset.id)) out.problems.push(`frame ${frames.length}: a copy of moving ${g.dataset.id}`);
            }
            const drawn = fresh.filter((n) => n.isConnected && opacity(n) > 0.05);
            for (const n of fresh) if (n.isConnected && n.offsetWidth > 0) {
              out.minInsertScale = Math.min(out.minInsertScale, n.getBoundingClientRect().width / n.offsetWidth);
            }
            for (const m of moving) for (const n of drawn) if (overlap(box(m), box(n))) pairs.add(m.dataset.id + ' over ' + n.dataset.id);
          };
          record();
          const end = () => {
            const last = kept.map(box);
            kept.forEach((n, j) => {
              const was = old.get(keyOf(n)).box, to = last[j];
              if (!inView(to)) return;
              out.checked += 1;
              let off = false, far = 0;
              const displacement = Math.hypot(was[0] - to[0], was[1] - to[1]);
              frames.forEach((f, i) => {
                const b = f[j];
                far = Math.max(far, Math.hypot(b[0] - to[0], b[1] - to[1]));
                for (let k = 0; k < 4; k++) {
                  if (b[k] >= Math.min(was[k], to[k]) - 8 && b[k] <= Math.max(was[k], to[k]) + 8) continue;
                  if (!off) out.problems.push(`frame ${i}: ${keyOf(n)} edge ${k} at ${b[k].toFixed(1)}, not within ${was[k].toFixed(1)}…${to[k].toFixed(1)}`);
                  off = true;
                  break;
                }
              });
              if (off) out.offPath += 1;
              if (displacement < 2) return;
              if (far >= displacement / 2 - 1) { out.travelled += 1; if (!inView(was)) out.offscreenTravelled += 1; }
              else out.problems.push(`${keyOf(n)} popped: ${displacement.toFixed(0)} px to travel, seen at most ${far.toFixed(0)} px away`);
            });
            out.frames = frames.length;
            out.movers = movers.size;
            out.crossingPairs = [...pairs];
            out.done = true;
          };
          const frame = () => {
            record();
            if (document.getAnimations().some((a) => a.playState === 'running' || a.pending)) requestAnimationFrame(frame); else end();
          };
          requestAnimationFrame(frame);
        }, { once: true });
        """#
}
