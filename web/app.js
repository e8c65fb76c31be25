// The dashboard: one EventSource on /api/events, every diff applied by the reference
// application and checked against its digest, controls kept in the URL.
import { applyChanges, countChanges, digestOf } from './feed.js';
import { AgendaView } from './render.js';

const params = new URLSearchParams(location.search);
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const connection = document.getElementById('connection');
const view = new AgendaView(document.getElementById('agenda'), document.getElementById('announce'));

/** What tests and curious people can read: the applied state and its timings. */
const state = {
  epoch: null, seq: 0, digest: null, verified: null, sections: [], tz: browserZone,
  stats: { snapshots: 0, diffs: 0, mismatches: 0, renderMs: 0, diffMs: 0, reconnects: 0 },
  connection: 'connecting',
};
window.eventdDashboard = state;
state.animations = view.animations;

function setConnection(name, text) {
  state.connection = name;
  connection.dataset.state = name;
  connection.textContent = text;
}

// MARK: - Controls in the URL

function controlsFromURL() {
  const form = document.getElementById('controls');
  form.days.value = params.get('days') || '14';
  form.tz.value = params.get('tz') || browserZone;
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const list = document.getElementById('zones');
  for (const z of zones) { const o = document.createElement('option'); o.value = z; list.append(o); }
  form.addEventListener('change', () => {
    params.set('days', form.days.value);
    params.set('tz', form.tz.value.trim() || browserZone);
    params.delete('calendar');
    const boxes = [...form.querySelectorAll('input[name="calendar"]')];
    if (boxes.some((b) => !b.checked)) for (const b of boxes) if (b.checked) params.append('calendar', b.value);
    history.replaceState(null, '', '?' + params.toString());
    connect(true);
  });
}

/** One checkbox per calendar seen (and per calendar named in the URL). */
const calendarsSeen = new Set(params.getAll('calendar'));
function updateCalendarFilter(sections) {
  let added = false;
  for (const s of sections) for (const i of s.items) if (i.calendar && !calendarsSeen.has(i.calendar)) { calendarsSeen.add(i.calendar); added = true; }
  const box = document.getElementById('calendars');
  if (!added && box.querySelector('input')) return;
  const chosen = new Set(params.getAll('calendar'));
  box.querySelectorAll('label').forEach((l) => l.remove());
  for (const name of [...calendarsSeen].sort()) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox'; input.name = 'calendar'; input.value = name;
    input.checked = chosen.size === 0 || chosen.has(name);
    label.append(input, ' ' + name);
    box.append(label);
  }
}

function streamURL() {
  const q = new URLSearchParams();
  q.set('tz', params.get('tz') || browserZone);
  // No token here: eventd-web traded it for an HttpOnly cookie, which EventSource sends.
  for (const key of ['days', 'from', 'past_days', 'empty_days']) if (params.get(key)) q.set(key, params.get(key));
  for (const c of params.getAll('calendar')) q.append('calendar', c);
  return 'api/events?' + q.toString();
}

// MARK: - The stream

let source = null;
let queue = Promise.resolve();
let retryTimer = null;

function connect(fresh) {
  if (source) { source.close(); state.stats.reconnects += 1; }
  clearTimeout(retryTimer);
  if (fresh) { state.epoch = null; state.seq = 0; }
  setConnection(state.epoch ? 'reconnecting' : 'connecting', state.epoch ? 'Reconnecting…' : 'Connecting…');
  const es = new EventSource(streamURL());
  source = es;
  const handle = (fn) => (event) => { queue = queue.then(() => (source === es ? fn(JSON.parse(event.data)) : null)).catch(fail); };
  es.addEventListener('snapshot', handle(onSnapshot));
  es.addEventListener('diff', handle(onDiff));
  es.addEventListener('resync', handle((m) => view.announce(`Resynchronising (${m.reason})`)));
  es.addEventListener('heartbeat', handle(() => { if (state.connection !== 'live') setConnection('live', 'Live'); }));
  es.addEventListener('offline', handle(() => setConnection('reconnecting', 'Reconnecting… (eventd is not answering)')));
  es.addEventListener('error', (event) => {
    if (event.data) { queue = queue.then(() => showError(JSON.parse(event.data))); return; }
    if (es.readyState === EventSource.CLOSED) {
      // Refused (503, 401...): EventSource gives up; try again from scratch later.
      setConnection('offline', 'Offline — retrying in 5 s');
      retryTimer = setTimeout(() => connect(true), 5000);
    } else if (state.connection !== 'reconnecting') {
      setConnection('reconnecting', 'Reconnecting…');
    }
  });
}

function fail(error) {
  console.error(error);
  state.stats.mismatches += 1;
  setConnection('reconnecting', 'Reconnecting… (state out of step: fresh snapshot)');
  connect(true);
}

function showError(message) {
  setConnection('offline', `Error: ${message.message || message.code}`);
}

async function onSnapshot(message) {
  const t0 = performance.now();
  const digest = await digestOf(message.sections);
  if (digest !== null && digest !== message.digest) throw new Error('snapshot digest mismatch');
  state.epoch = message.epoch; state.seq = message.seq; state.digest = message.digest; state.verified = digest;
  state.sections = message.sections;
  state.tz = message.view?.tz || browserZone;
  view.render(state.sections, state.tz, false);
  updateCalendarFilter(state.sections);
  state.stats.snapshots += 1;
  state.stats.renderMs = performance.now() - t0;
  document.body.dataset.digest = digest ?? '';
  setConnection('live', digest === null ? 'Live (digests unchecked: no WebCrypto)' : 'Live');
  view.announce(`Agenda loaded: ${state.sections.reduce((n, s) => n + s.items.length, 0)} items`);
}

async function onDiff(message) {
  if (message.epoch !== state.epoch || message.base_seq !== state.seq) throw new Error('diff does not follow the state');
  const t0 = performance.now();
  const next = applyChanges(state.sections, message.changes);
  const t1 = performance.now();
  const digest = await digestOf(next);
  if (digest !== null && digest !== message.digest) throw new Error('diff digest mismatch');
  const t2 = performance.now();
  state.sections = next; state.seq = message.seq; state.digest = message.digest; state.verified = digest;
  view.render(next, state.tz, true, message.changes.items.moved.map((m) => m.id));
  updateCalendarFilter(next);
  state.stats.diffs += 1;
  // Applying and drawing, without the hashing (which a client may skip).
  state.stats.diffMs = (t1 - t0) + (performance.now() - t2);
  state.stats.applyMs = t1 - t0;
  state.stats.renderPhases = view.timings;
  document.body.dataset.digest = digest ?? '';
  if (state.connection !== 'live') setConnection('live', 'Live');
  const c = countChanges(message.changes);
  view.announce(`Agenda updated: ${c.added} added, ${c.removed} removed, ${c.moved} moved, ${c.changed} changed`);
}

controlsFromURL();
connect(true);
setInterval(() => view.placeNowLine(), 60_000);
