// The feed's client model (docs/protocol.md): canonical JSON, its digest, diffs. No DOM.

/** Compares two strings by Unicode code point (Python's str order, not UTF-16's). */
export function compareCodePoints(a, b) {
  const ia = a[Symbol.iterator](), ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next(), y = ib.next();
    if (x.done || y.done) return x.done === y.done ? 0 : (x.done ? -1 : 1);
    const cx = x.value.codePointAt(0), cy = y.value.codePointAt(0);
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** A string as Python's json.dumps(ensure_ascii=True) writes it: \uXXXX (lowercase)
 *  outside printable ASCII. */
const quote = (s) => JSON.stringify(s).replace(/[^ -~]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));

/** Gives the browser a turn (input, paint) once work has run a frame's time: long work
 *  goes in slices, no task of a big diff over 100 ms. */
let slice = 0;
export async function breathe() {
  if (performance.now() - slice < 16) return;
  await (globalThis.scheduler?.yield ? scheduler.yield() : new Promise((r) => setTimeout(r)));
  slice = performance.now();
}

/** Each set of keys' canonical order, sorted once (items share a few). */
const orders = new Map();
const sorted = (keys) => {
  const id = keys.join('\0');
  let order = orders.get(id);
  if (!order) orders.set(id, order = keys.slice().sort(compareCodePoints));
  return order;
};

/** Canonical JSON: keys sorted by code point, no whitespace, ASCII-only escapes. */
export function canonicalJSON(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean': case 'number': return JSON.stringify(value); // (not finite: null)
    case 'string': return quote(value);
    case 'object':
      if (Array.isArray(value)) return '[' + value.map(canonicalJSON).join(',') + ']';
      return '{' + sorted(Object.keys(value))
        .map((k) => quote(k) + ':' + canonicalJSON(value[k])).join(',') + '}';
    default: throw new TypeError('not JSON: ' + typeof value);
  }
}

async function sha256Hex(text) {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Protocol 2: section digests by id, with header and items (applyChanges keeps untouched
// items' objects: an unchanged section is not hashed again).
const sectionDigests = new Map();

/** Protocol 2's digest of a section: the SHA-256 of its canonical JSON. */
export async function sectionDigestOf(section) {
  const header = canonicalJSON({ ...section, items: null });
  const kept = sectionDigests.get(section.id);
  if (kept && kept.header === header && kept.items.length === section.items.length
      && kept.items.every((item, i) => item === section.items[i])) return kept.digest;
  const digest = await sha256Hex(canonicalJSON(section));
  sectionDigests.set(section.id, { header, items: section.items.slice(), digest });
  return digest;
}

/** The view digest, hex; null without WebCrypto (plain HTTP to another host). Protocol
 *  1: SHA-256 of the sections' canonical JSON; 2: of the sections' digests, in order. */
export async function digestOf(sections, protocol = 1) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  if (protocol !== 2) return sha256Hex(canonicalJSON(sections));
  const digests = [];
  for (const s of sections) { digests.push(await sectionDigestOf(s)); await breathe(); }
  const ids = new Set(sections.map((s) => s.id));
  for (const id of sectionDigests.keys()) if (!ids.has(id)) sectionDigests.delete(id);
  return sha256Hex(digests.join(''));
}

/** The reference application of `changes`: new sections; throws on a misfit. */
export function applyChanges(sections, changes) {
  const si = changes.sections, it = changes.items;
  const byId = new Map();
  for (const s of sections) byId.set(s.id, { ...s, items: s.items.slice() });
  const find = (sectionId, itemId, problem) => {
    const s = byId.get(sectionId), i = s ? s.items.findIndex((x) => x.id === itemId) : -1;
    if (i < 0) throw new Error(problem);
    return [s.items, i];
  };
  const take = (sectionId, itemId) => {
    const [items, i] = find(sectionId, itemId, `no item ${itemId} in ${sectionId}`);
    return items.splice(i, 1)[0];
  };
  // 1. Remove deleted items and the sources of moves; deleted and moved sections.
  for (const d of it.deleted) { if (byId.has(d.section)) take(d.section, d.id); }
  const movedItems = new Map();
  for (const m of it.moved) movedItems.set(m.id, take(m.from.section, m.id));
  const deleted = new Set(si.deleted);
  const movedSections = new Set(si.moved.map((m) => m.id));
  const order = sections.map((s) => s.id).filter((id) => !deleted.has(id) && !movedSections.has(id));
  // 2. Inserted and moved sections at their new indexes, ascending.
  const placed = si.inserted.map((x) => ({ index: x.index, section: { ...x.section, items: x.section.items.slice() } }))
    .concat(si.moved.map((m) => ({ index: m.to, section: byId.get(m.id) })));
  placed.sort((a, b) => a.index - b.index);
  for (const p of placed) {
    if (!p.section) throw new Error('moved section missing');
    byId.set(p.section.id, p.section);
    order.splice(p.index, 0, p.section.id);
  }
  // 3. Inserted and moved items, per section, ascending.
  const arrivals = new Map();
  const arrive = (section, index, item) => {
    if (!arrivals.has(section)) arrivals.set(section, []);
    arrivals.get(section).push({ index, item });
  };
  for (const x of it.inserted) arrive(x.section, x.index, x.item);
  for (const m of it.moved) arrive(m.to.section, m.to.index, movedItems.get(m.id));
  for (const [sectionId, list] of arrivals) {
    const s = byId.get(sectionId);
    if (!s) throw new Error(`no section ${sectionId}`);
    list.sort((a, b) => a.index - b.index);
    for (const a of list) s.items.splice(a.index, 0, a.item);
  }
  // 4. New content of updated items and section headers.
  for (const u of it.updated) {
    const [items, i] = find(u.section, u.item.id, `updated item ${u.item.id} not in ${u.section}`);
    items[i] = u.item;
  }
  for (const u of si.updated) {
    const s = byId.get(u.section.id);
    if (!s) throw new Error(`updated section ${u.section.id} missing`);
    byId.set(s.id, { ...s, ...u.section, items: s.items });
  }
  return order.map((id) => byId.get(id));
}

/** How many of each change a diff carries (for screen readers). */
export function countChanges(changes) {
  const it = changes.items, si = changes.sections;
  return {
    added: it.inserted.length + si.inserted.reduce((n, x) => n + x.section.items.length, 0),
    removed: it.deleted.length,
    moved: it.moved.length,
    changed: it.updated.length,
  };
}

// Transport: the token stays on this origin

const KEY = 'eventd-web-token';

/** The token: `?token=` (then kept in Web Storage, out of the address), else that
 *  storage; never a cookie (sent to every port). A link's token replaces a working one
 *  only if it works itself: a link cannot log the dashboard out. */
export async function takeToken(works = tokenWorks) {
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  const stores = [globalThis.sessionStorage, globalThis.localStorage];
  let stored = null;
  for (const s of stores) { try { stored = stored || s.getItem(KEY); } catch { /* storage off */ } }
  if (given === null) return stored;
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  if (stored && given !== stored && !(await works(given)) && (await works(stored))) return stored;
  for (const s of stores) { try { s.setItem(KEY, given); } catch { /* kept for this page only */ } }
  return given;
}

/** Whether eventd-web takes `token` (its status answers). */
async function tokenWorks(token) {
  try {
    const answer = await fetch('api/status', { cache: 'no-store', headers: authorization(token) });
    return answer.ok;
  } catch {
    return false;
  }
}

export const authorization = (token) => (token ? { Authorization: 'Bearer ' + token } : {});

/** EventSource over fetch, which sends `Authorization`; CLOSED on a refusal. */
export class FeedStream extends EventTarget {
  static CONNECTING = 0; static OPEN = 1; static CLOSED = 2;

  constructor(url, token, lastId = '') {
    super();
    this.readyState = FeedStream.CONNECTING;
    this.abort = new AbortController();
    this.run(url, token, lastId);
  }

  close() { this.readyState = FeedStream.CLOSED; this.abort.abort(); }

  async run(url, token, lastId) {
    this.retry = 2000;
    while (this.readyState !== FeedStream.CLOSED) {
      const headers = { Accept: 'text/event-stream', ...authorization(token) };
      if (lastId) headers['Last-Event-ID'] = lastId;
      try {
        const answer = await fetch(url, { headers, cache: 'no-store', signal: this.abort.signal });
        if (!answer.ok || !answer.headers.get('content-type')?.startsWith('text/event-stream')) {
          this.readyState = FeedStream.CLOSED;
          this.status = answer.status;
          this.dispatchEvent(new Event('error'));
          return;
        }
        this.readyState = FeedStream.OPEN;
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        // Only each new chunk is searched for line ends: a 357 KB diff comes in many.
        const ends = /\r\n|\r|\n/g;
        let line = [], cr = false;
        this.type = ''; this.data = null;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          let at = ends.lastIndex = cr && value[0] === '\n' ? 1 : 0;
          for (let m; (m = ends.exec(value));) {
            line.push(value.slice(at, m.index));
            at = ends.lastIndex;
            cr = m[0] === '\r' && at === value.length; // (its \n may start the next chunk)
            lastId = this.field(line.join(''), lastId);
            line = [];
          }
          if (at < value.length) line.push(value.slice(at)), cr = false;
          await breathe();
        }
      } catch { /* a dropped connection, or close() */ }
      if (this.readyState === FeedStream.CLOSED) return;
      this.readyState = FeedStream.CONNECTING;
      this.dispatchEvent(new Event('error'));
      await new Promise((resolve) => setTimeout(resolve, this.retry));
    }
  }

  /** One line of the stream (an empty one ends an event); the last event id. */
  field(line, lastId) {
    if (line === '') {
      if (this.data !== null) this.dispatchEvent(new MessageEvent(this.type || 'message', { data: this.data, lastEventId: lastId }));
      this.type = ''; this.data = null;
      return lastId;
    }
    const c = line.indexOf(':'), field = c < 0 ? line : line.slice(0, c);
    let v = c < 0 ? '' : line.slice(c + 1);
    if (v[0] === ' ') v = v.slice(1);
    if (field === 'event') this.type = v;
    else if (field === 'data') this.data = this.data === null ? v : this.data + '\n' + v;
    else if (field === 'id' && !v.includes('\0')) return v;
    else if (field === 'retry' && /^\d+$/.test(v)) this.retry = Number(v);
    return lastId; // (a comment, "": a keep-alive)
  }
}

/** One stream per view for all tabs (Chromium opens 6 connections a host): the Web Lock's
 *  holder posts its events to the others, a late one its state; the next resumes. */
export class SharedFeed extends EventTarget {
  me = Math.random(); lastId = ''; held = []; done = new AbortController();

  constructor(url, token, current) {
    super();
    const name = `eventd ${url} ${token}`, bc = this.bc = new BroadcastChannel(name);
    bc.onmessage = ({ data: m }) => {
      if (m.join) { if (this.stream) current().then((s) => s && bc.postMessage({ ...s, type: 'snapshot', to: m.join })); }
      else if (!this.stream && (!m.to || m.to === this.me)) this.pass(m);
    };
    // Without Web Locks (no secure context): a stream per tab.
    if (!navigator.locks) this.lead(url, token); else navigator.locks.request(name, { signal: this.done.signal }, () => this.lead(url, token)).catch(() => {});
    bc.postMessage({ join: this.me });
  }

  lead(url, token) {
    if (this.ended) return;
    const s = this.stream = new FeedStream(url, token, this.lastId);
    s.dispatchEvent = ({ type, data, lastEventId: id }) => {
      const m = { type, data, id, closed: s.readyState === 2, status: s.status };
      this.bc.postMessage(m); this.pass(m);
    };
    return new Promise((resolve) => { this.release = resolve; });
  }

  /** Diffs wait for this tab's first snapshot. */
  pass(m) {
    if (this.ended) return;
    if (m.type === 'diff' && !this.synced) return void this.held.push(m);
    if (m.id) this.lastId = m.id;
    this.status = m.status; this.readyState = m.closed ? 2 : 1;
    this.dispatchEvent(new MessageEvent(m.type, { data: m.data }));
    if (m.type !== 'snapshot' || this.synced) return;
    this.synced = true;
    for (const h of this.held.splice(0)) this.pass(h);
  }

  close() { this.ended = true; this.readyState = 2; this.stream?.close(); this.release?.(); this.done.abort(); this.bc.close(); }
}
