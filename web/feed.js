// The feed's client model, framework-free: canonical JSON and its SHA-256 digest
// (byte for byte what eventd hashes), and the reference application of a diff
// (docs/protocol.md). No DOM here: render.js draws what this computes.

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

/** A string as Python's json.dumps(ensure_ascii=True) writes it: every UTF-16 unit
 *  outside printable ASCII as \uXXXX (lowercase hex), so emoji become surrogate pairs. */
function quote(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += s[i];
  }
  return out + '"';
}

/** Canonical JSON: keys sorted by code point, no whitespace, ASCII-only escapes. */
export function canonicalJSON(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean': return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) return 'null';
      return Number.isInteger(value) ? String(value) : JSON.stringify(value);
    case 'string': return quote(value);
    case 'object':
      if (Array.isArray(value)) return '[' + value.map(canonicalJSON).join(',') + ']';
      return '{' + Object.keys(value).sort(compareCodePoints)
        .map((k) => quote(k) + ':' + canonicalJSON(value[k])).join(',') + '}';
    default: throw new TypeError('not JSON: ' + typeof value);
  }
}

async function sha256Hex(text) {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Protocol 2: each section's digest by id, with its header and the very item objects it
// was computed from. applyChanges keeps the objects of items a diff did not touch, so a
// section whose header and items are the same objects is not hashed again.
const sectionDigests = new Map();

/** Protocol 2's digest of one section: the SHA-256 of its canonical JSON. */
export async function sectionDigestOf(section) {
  const header = canonicalJSON({ ...section, items: null });
  const kept = sectionDigests.get(section.id);
  if (kept && kept.header === header && kept.items.length === section.items.length
      && kept.items.every((item, i) => item === section.items[i])) return kept.digest;
  const digest = await sha256Hex(canonicalJSON(section));
  sectionDigests.set(section.id, { header, items: section.items.slice(), digest });
  return digest;
}

/** The view digest of docs/protocol.md, lowercase hex (WebCrypto); null where WebCrypto
 *  is missing (a page served over plain HTTP to another machine). Protocol 1 (the
 *  default, a message without `protocol`): the SHA-256 of the sections' canonical JSON.
 *  Protocol 2: the SHA-256 of the sections' own digests, in order; only sections that
 *  changed since the last call are hashed. */
export async function digestOf(sections, protocol = 1) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  if (protocol !== 2) return sha256Hex(canonicalJSON(sections));
  const digests = await Promise.all(sections.map(sectionDigestOf));
  const ids = new Set(sections.map((s) => s.id));
  for (const id of sectionDigests.keys()) if (!ids.has(id)) sectionDigests.delete(id);
  return sha256Hex(digests.join(''));
}

/** Applies a diff's `changes` to `sections` by the reference application; returns the
 *  new sections (the old array and sections are not modified). Throws on a diff that
 *  does not fit the base, which the caller treats like a digest mismatch. */
export function applyChanges(sections, changes) {
  const si = changes.sections, it = changes.items;
  const byId = new Map();
  for (const s of sections) byId.set(s.id, { ...s, items: s.items.slice() });
  const take = (sectionId, itemId) => {
    const s = byId.get(sectionId);
    const i = s ? s.items.findIndex((x) => x.id === itemId) : -1;
    if (i < 0) throw new Error(`no item ${itemId} in ${sectionId}`);
    return s.items.splice(i, 1)[0];
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
    const s = byId.get(u.section);
    const i = s ? s.items.findIndex((x) => x.id === u.item.id) : -1;
    if (i < 0) throw new Error(`updated item ${u.item.id} not in ${u.section}`);
    s.items[i] = u.item;
  }
  for (const u of si.updated) {
    const s = byId.get(u.section.id);
    if (!s) throw new Error(`updated section ${u.section.id} missing`);
    byId.set(s.id, { ...s, ...u.section, items: s.items });
  }
  return order.map((id) => byId.get(id));
}

/** How many of each change a diff carries (for the screen-reader summary). */
export function countChanges(changes) {
  const it = changes.items, si = changes.sections;
  return {
    added: it.inserted.length + si.inserted.reduce((n, x) => n + x.section.items.length, 0),
    removed: it.deleted.length,
    moved: it.moved.length,
    changed: it.updated.length,
  };
}
