// The browser's digest check after a one-item diff, protocol 1 against 2: web/feed.js
// under node (WebCrypto, as in a browser) on a generated 5,010-item, 30-day view.
// Usage: node scripts/digest_timing.mjs
import { applyChanges, digestOf } from '../web/feed.js';

const sections = [];
for (let d = 0, n = 0; d < 30; d++) {
  const date = `2026-12-${String(d + 1).padStart(2, '0')}`;
  const items = [];
  for (let k = 0; k < 167; k++, n++) {
    items.push({ all_day: false, calendar: 'work', continues_from_previous_day: false, continues_to_next_day: false,
      end: `${date}T10:00:00Z`, id: `id${n}`.padEnd(32, 'x'), kind: 'event', location: 'Room ' + n, recurrence_id: null,
      start: `${date}T09:00:00Z`, status: null, summary: `Meeting number ${n} ünïcödé`, uid: `u${n}@bench` });
  }
  sections.push({ date, id: date, items, label: null });
}
const count = sections.reduce((a, s) => a + s.items.length, 0);
for (const protocol of [1, 2]) {
  let state = sections;
  await digestOf(state, protocol);
  const times = [];
  for (let r = 0; r < 15; r++) {
    const s = state[r % 30];
    const item = { ...s.items[3], summary: 'changed ' + r };
    const next = applyChanges(state, { items: { deleted: [], inserted: [], moved: [], updated: [{ item, section: s.id }] },
      sections: { deleted: [], inserted: [], moved: [], updated: [] } });
    const t0 = performance.now();
    await digestOf(next, protocol);
    times.push(performance.now() - t0);
    state = next;
  }
  times.sort((a, b) => a - b);
  console.log(`protocol=${protocol} items=${count} median_ms=${times[7].toFixed(2)} min_ms=${times[0].toFixed(2)}`);
}
