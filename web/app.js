// The dashboard: one stream on /api/events, each diff applied and checked by its digest.
import { applyChanges, authorization, countChanges, digestOf, FeedStream, SharedFeed, takeToken } from './feed.js';
import { AgendaView } from './render.js';
import { Controls, chosenCalendars } from './controls.js';
import { heading, localisePage, ui } from './format.js';

localisePage();
// ?wall=1: a wall screen (layout.css, render.js's fit).
const wall = new URLSearchParams(location.search).get('wall') === '1';
document.documentElement.classList.toggle('wall', wall);

// Before anything reads the address: a `?token=` is kept and taken out.
const token = await takeToken();
let params = new URLSearchParams(location.search);
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const connection = document.getElementById('connection');
const problem = document.getElementById('problem');
const view = new AgendaView(document.getElementById('agenda'), document.getElementById('announce'));

/** The applied state and timings, for tests and the curious. */
const state = {
  epoch: null, seq: 0, digest: null, verified: null, sections: [], tz: browserZone,
  stats: { snapshots: 0, diffs: 0, mismatches: 0, renderMs: 0, diffMs: 0, reconnects: 0 },
  connection: 'connecting', problem: null,
  lastValid: null, // the last view eventd accepted
};
window.eventdDashboard = state;
state.animations = view.animations;
view.wall = wall;

/** The connection's state: a pill of fixed size (no reflow); dims stale content. */
function setConnection(name, text) {
  // Not live: since when (why in the title).
  const short = name === 'reconnecting' ? ui.reconnecting : name === 'offline' ? ui.offline.split(' — ')[0] : null;
  state.connection = name;
  connection.dataset.state = name;
  connection.textContent = short && state.heard ? `${short} · ${ui.updatedAt(view.times.time(new Date(state.heard)))}` : text;
  connection.title = text;
  document.body.dataset.connection = name;
}

/** eventd's words about a refused view (over the page, out of its flow). */
function showProblem(text) {
  state.problem = text;
  problem.querySelector('.text').textContent = text ?? '';
  problem.hidden = !text;
}
problem.querySelector('.dismiss').addEventListener('click', () => showProblem(null));

const controls = new Controls(document.getElementById('controls'), browserZone, (next) => {
  showProblem(null);
  switchTo(next);
});

/** The view `next` names: the address changes in place, the stream follows. */
function switchTo(next) {
  params = next;
  history.replaceState(null, '', '?' + params.toString());
  controls.show(params);
  connect(true);
}

function streamURL() {
  const q = new URLSearchParams();
  q.set('tz', params.get('tz') || browserZone);
  // No token: it goes in the Authorization header, never in a URL.
  for (const key of ['days', 'from', 'past_days', 'empty_days']) if (params.get(key)) q.set(key, params.get(key));
  for (const c of chosenCalendars(params) ?? []) q.append('calendar', c);
  q.set('protocol', '2'); // per-section digests: a diff re-hashes what it touched
  return 'api/events?' + q.toString();
}

/** Every calendar eventd knows, for the filter (also those with no event). */
async function loadCalendars() {
  try {
    const answer = await fetch('api/status', { cache: 'no-store', headers: authorization(token) });
    if (!answer.ok) return;
    const status = await answer.json();
    state.calendarCount = status.calendar_names?.length ?? null;
    controls.setCalendars(status.calendar_names ?? [], status.calendar_colors);
    if (state.sections.length === 0) show([], state.tz, false);
  } catch { /* the filter keeps the items' calendars */ }
}

let source = null;
let queue = Promise.resolve();
let retryTimer = null;

function connect(fresh) {
  if (source) { source.close(); source = null; state.stats.reconnects += 1; }
  clearTimeout(retryTimer);
  if (fresh) { state.epoch = null; state.seq = 0; }
  if (chosenCalendars(params)?.length === 0) {
    // No calendar chosen: nothing to ask for or show.
    queue = queue.then(() => show([], state.tz, true));
    setConnection('idle', ui.noCalendars);
    return;
  }
  // A refused token stays said (once) while it is tried again.
  if (state.connection !== 'refused') setConnection(state.epoch ? 'reconnecting' : 'connecting', state.epoch ? ui.reconnecting : ui.connecting);
  const es = new SharedFeed(streamURL(), token, current);
  source = es;
  const handle = (fn) => (event) => { queue = queue.then(() => (source === es ? fn(JSON.parse(event.data)) : null)).catch(fail); };
  for (const [type, fn] of Object.entries({
    hello: onHello, snapshot: onSnapshot, diff: onDiff, resync: (m) => view.announce(ui.resync(m.reason)),
    heartbeat: () => { state.heard = Date.now(); if (state.connection !== 'live') setConnection('live', ui.live); },
    offline: () => setConnection('reconnecting', ui.notAnswering),
    // A colour set or a calendar added or removed (eventd says so at once).
    calendars: (m) => { state.calendarCount = m.names.length; controls.setCalendars(m.names, m.colors); },
  })) es.addEventListener(type, handle(fn));
  es.addEventListener('error', (event) => {
    if (event.data) { queue = queue.then(() => (source === es ? refused(es, JSON.parse(event.data)) : null)); return; }
    if (source !== es) return;
    if (es.readyState === FeedStream.CLOSED) {
      // Refused (503, 401...): from scratch 5 s later. A refused token is said once,
      // in full at the foot too (the pill cuts it short).
      if (es.status !== 401) setConnection('offline', ui.offline);
      else if (state.connection !== 'refused') showProblem(ui.tokenRefused), setConnection('refused', ui.tokenRefused);
      retryTimer = setTimeout(() => connect(true), 5000);
    } else if (state.connection !== 'reconnecting') {
      setConnection('reconnecting', ui.reconnecting);
    }
  });
}

/** The applied state as a snapshot, for another tab. */
const current = () => queue.then(() => state.epoch && {
  id: state.epoch + '.' + state.seq,
  data: JSON.stringify({ digest: state.digest, epoch: state.epoch, protocol: 2, sections: state.sections, seq: state.seq, view: state.view }),
});

/** A resume with nothing changed brings nothing else until a heartbeat. */
function onHello(message) {
  if (state.epoch && message.epoch === state.epoch) setConnection('live', ui.live);
}

function fail(error) {
  console.error(error);
  state.stats.mismatches += 1;
  setConnection('reconnecting', ui.outOfStep);
  connect(true);
}

/** eventd refused the view: its words stay shown; back to the last view accepted. */
function refused(es, message) {
  es.close();
  const text = message.message || message.code;
  showProblem(`eventd: ${text}`);
  if (state.lastValid !== null && state.lastValid !== params.toString()) {
    switchTo(new URLSearchParams(state.lastValid));
  } else {
    source = null;
    setConnection('error', 'View refused');
    if (state.lastValid === null) show([], state.tz, false);
  }
}

async function show(sections, tz, animate) {
  state.sections = sections;
  state.tz = tz;
  state.heard = Date.now();
  view.view = state.view;
  view.why = chosenCalendars(params)?.length === 0 ? 'noneTicked' : state.calendarCount === 0 ? 'noCalendarsYet' : 'nothingInRange';
  await view.render(sections, tz, animate);
  controls.addCalendars(sections.flatMap((s) => s.items.map((i) => i.calendar)));
}

/** Checks `sections` by `message`'s digest (null: no WebCrypto); takes its seq. */
async function verify(sections, message, what) {
  const digest = await digestOf(sections, message.protocol);
  if (digest !== null && digest !== message.digest) throw new Error(`${what} digest mismatch`);
  state.seq = message.seq; state.digest = message.digest; state.verified = digest;
  return digest;
}

async function onSnapshot(message) {
  const t0 = performance.now();
  const digest = await verify(message.sections, message, 'snapshot');
  state.epoch = message.epoch; state.view = message.view;
  state.lastValid = params.toString();
  // A snapshot after the first (a new view, a resync) animates.
  await show(message.sections, message.view?.tz || browserZone, state.stats.snapshots > 0);
  state.stats.snapshots += 1;
  state.stats.renderMs = performance.now() - t0;
  document.body.dataset.digest = digest ?? '';
  setConnection('live', digest === null ? ui.unchecked : ui.live);
  view.announce(ui.loaded(state.sections.reduce((n, s) => n + s.items.length, 0)));
  loadCalendars();
}

async function onDiff(message) {
  if (message.epoch === state.epoch && message.seq <= state.seq) return; // (held by a tab)
  if (message.epoch !== state.epoch || message.base_seq !== state.seq) throw new Error('diff does not follow the state');
  const t0 = performance.now();
  const previous = state.sections;
  const next = applyChanges(state.sections, message.changes);
  const t1 = performance.now();
  const digest = await verify(next, message, 'diff');
  await view.prepare(next); // new items' elements made in slices
  const t2 = performance.now();
  await show(next, state.tz, true);
  // For tests: the change is in the DOM, its animations started.
  dispatchEvent(new CustomEvent('eventd:applied', { detail: { seq: message.seq } }));
  state.stats.diffs += 1;
  // Without hashing (a client may skip it).
  state.stats.diffMs = (t1 - t0) + (performance.now() - t2);
  state.stats.applyMs = t1 - t0;
  state.stats.renderPhases = view.timings;
  document.body.dataset.digest = digest ?? '';
  if (state.connection !== 'live') setConnection('live', ui.live);
  // A calendar removed or added: the filter reads the status again.
  clearTimeout(statusTimer);
  statusTimer = setTimeout(loadCalendars, 300);
  const said = describe(message.changes, previous, next);
  view.announce(said);
  if (document.hidden) away.push(said);
}

/** What a diff changed, by name ("Dentist moved to Tuesday, December 1"): five at most,
 *  then how many more. (An item into a new section comes with it, its old place deleted.) */
function describe(changes, before, after) {
  const index = (sections) => new Map(sections.flatMap((s) => s.items.map((i) => [i.id, [i, s]])));
  const was = index(before), now = index(after), it = changes.items, name = (i) => i?.summary || ui.noTitle;
  const moved = (id) => () => ui.movedTo(name(now.get(id)?.[0]), now.has(id) ? heading(now.get(id)[1], 'later') : '');
  const fresh = [...it.inserted.map((x) => x.item.id), ...changes.sections.inserted.flatMap((x) => x.section.items.map((i) => i.id))];
  const said = [
    ...fresh.map((id) => (was.has(id) ? moved(id) : () => ui.added(name(now.get(id)?.[0])))),
    ...it.moved.map((m) => moved(m.id)),
    ...it.deleted.filter((d) => !now.has(d.id)).map((d) => () => ui.removed(name(was.get(d.id)?.[0]))),
    ...before.filter((s) => changes.sections.deleted.includes(s.id)).flatMap((s) => s.items)
      .filter((i) => !now.has(i.id)).map((i) => () => ui.removed(name(i))),
    ...it.updated.map((u) => () => ui.changed(name(u.item))),
  ];
  const shown = said.length > 5 ? 4 : said.length;
  return said.slice(0, shown).map((f) => f()).concat(said.length > shown ? [ui.andMore(said.length - shown)] : []).join('; ')
    || ui.updated(countChanges(changes));
}

controls.show(params);
loadCalendars(); // also when no calendar is chosen (no snapshot comes)
connect(true);
let statusTimer = null;
// The "now" line and what is over: at each minute of the clock, and when shown again.
(function tick() { view.placeNowLine(true); setTimeout(tick, 60_001 - Date.now() % 60_000); })();
// Back from the background: the clock, and what changed meanwhile marked and said.
const away = [];
addEventListener('visibilitychange', () => {
  if (document.hidden) return;
  view.placeNowLine(true);
  view.markAway();
  if (away.length) view.announce(ui.awayChanged(away.splice(0).join('; ')));
});
setInterval(loadCalendars, 60_000); // behind Redis no `calendars` event comes
