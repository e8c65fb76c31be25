// Motion after layout (FLIP): each displaced element animated from its old box to its
// box in the final layout, from off screen too. Leaving items fade where they were.
import { el } from './format.js';

/** Every motion's duration and curve. */
export const DURATION = 250;
export const EASING = 'cubic-bezier(.2, .7, .3, 1)';
const TIMING = { duration: DURATION, easing: EASING };
/** New items and headings come in from 92 % of their size (never squashed) once what
 *  leaves has faded (DELAY ms), or once the movers whose path crosses them have passed. */
const DELAY = 150;
/** A change of more items (added and removed) is drawn at once: no motion to follow. */
export const MOTION_LIMIT = 200;
/** How far beyond the viewport a box counts as in view (px). */
const MARGIN = 200;

const overlap = (a, b) => Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);
const span = (a, b) => ({ left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) });
const near = (r) => r && r.bottom > -MARGIN && r.top < innerHeight + MARGIN && r.width > 0;
const moved = (a, b) => Math.abs(a.left - b.left) >= 1 || Math.abs(a.top - b.top) >= 1
  || Math.abs(a.width - b.width) >= 1 || Math.abs(a.height - b.height) >= 1;
/** How much larger `a` is than `b`: [x, y]. */
const ratio = (a, b) => [b.width > 0 ? a.width / b.width : 1, b.height > 0 ? a.height / b.height : 1];
const flip = (a, b, scale) => `translate(${a.left - b.left}px, ${a.top - b.top}px)` + (scale ? ` scale(${ratio(a, b).join(', ')})` : '');
const key = (node) => node.dataset.id ?? node.dataset.key;
const glide = (transform) => [{ transform, transformOrigin: '0 0' }, { transform: 'none', transformOrigin: '0 0' }];

/** Where things were (viewport rects by id), and each item's section attributes. */
class Layout {
  items = new Map();
  headings = new Map();
  sections = new Map();
  itemSection = new Map();
}

export class Motion {
  constructor() {
    this.under = this.layer('ghosts');
    this.glides = new WeakMap();
    /** Sections without containment while a batch runs. */
    this.opened = new Set();
    this.batch = 0;
    this.counts = { entered: 0, left: 0, moved: 0, flashed: 0, crossed: 0 };
  }

  layer(className) {
    const layer = el('div', className);
    layer.setAttribute('aria-hidden', 'true');
    layer.inert = true;
    document.body.append(layer);
    return layer;
  }

  /** Reads every section, heading and item, off screen too: whatever comes into view
   *  travels from where it was (one layout). */
  measure(sectionNodes) {
    const layout = new Layout();
    for (const [id, section] of sectionNodes) {
      layout.sections.set(id, section.getBoundingClientRect());
      layout.headings.set(id, section.firstChild.getBoundingClientRect());
      const attrs = { kind: section.dataset.kind, range: section.dataset.range, date: section.dataset.date };
      for (const node of section.lastChild.children) {
        const r = node.getBoundingClientRect();
        if (!key(node) || !r.width) continue; // (an item a wall left out)
        layout.items.set(key(node), r);
        layout.itemSection.set(key(node), attrs);
      }
    }
    return layout;
  }

  /** Animates from `before` to the DOM render.js built. */
  play(before, sectionNodes, change) {
    // Writes first: glides stop, leaving nodes leave the flow, new sections sized.
    for (const section of sectionNodes.values()) {
      for (const node of section.lastChild.children) this.glides.get(node)?.cancel();
      this.glides.get(section.firstChild)?.cancel();
    }
    for (const [node, id] of change.leaving) this.leaveItem(node, id, before);
    for (const [node, id] of change.gone) this.leaveSection(node, id, before);
    const batch = ++this.batch;
    const open = (s) => { s.style.contentVisibility = 'visible'; this.opened.add(s); };
    for (const s of change.fresh) open(s);
    for (const [id, r] of before.sections) if (near(r) && sectionNodes.has(id)) open(sectionNodes.get(id));
    // Reads: the final layout (a skipped section now in view opened, all read again).
    let rects;
    for (let pass = 0; pass < 3; pass++) {
      rects = new Map();
      const closed = [];
      for (const [id, s] of sectionNodes) {
        const r = s.getBoundingClientRect();
        rects.set(id, r);
        if (near(r) && !this.opened.has(s)) closed.push(s);
      }
      if (closed.length === 0) break;
      closed.forEach(open);
    }
    const moves = [], fades = [];
    for (const [id, section] of sectionNodes) {
      if (!near(rects.get(id)) && !near(before.sections.get(id))) continue; // out of view before and after
      const heading = section.firstChild;
      if (change.fresh.has(section)) fades.push([heading, heading.getBoundingClientRect()]);
      else if (before.headings.has(id)) moves.push([heading, before.headings.get(id), heading.getBoundingClientRect()]);
      for (const node of section.lastChild.children) {
        const first = before.items.get(key(node)), last = node.getBoundingClientRect();
        if (first) { if (near(first) || near(last)) moves.push([node, first, last]); } else if (near(last)) fades.push([node, last]);
      }
    }
    // Only writes from here on.
    const running = [], paths = [];
    for (const [node, first, last] of moves) {
      const crossing = change.crossing.has(node);
      if (!crossing && !moved(first, last)) continue;
      const item = node.tagName === 'LI';
      if (item) paths.push(span(first, last));
      const a = node.animate(glide(flip(first, last, item)), TIMING);
      // Content counter-scaled: drawn at its final size, text never stretches. The card
      // itself stays opaque (no copy, no fade): nothing shows through it.
      const [sx, sy] = item ? ratio(first, last) : [1, 1];
      const counters = sx === 1 && sy === 1 ? [] : [...node.children].map((child) =>
        child.animate(glide(`scale(${1 / sx}, ${1 / sy})`), TIMING));
      const mark = crossing ? 'crossing' : 'moving';
      if (crossing) this.counts.crossed += 1;
      node.classList.add(mark);
      this.glides.set(node, { cancel: () => { a.cancel(); for (const c of counters) c.cancel(); } });
      if (item && key(node) !== 'now') this.counts.moved += 1;
      const done = () => node.classList.remove(mark);
      running.push(a.finished.then(done, done));
    }
    for (const [node, rect] of fades) {
      const item = node.tagName === 'LI';
      const delay = paths.some((p) => overlap(p, rect)) ? DURATION : change.leaving.length ? DELAY : 0;
      if (item && node.dataset.id) this.counts.entered += 1;
      const from = item ? { opacity: 0, transform: 'scale(.92)' } : { opacity: 0 };
      running.push(node.animate([from, { opacity: 1, transform: 'none' }], { ...TIMING, delay, fill: 'backwards' }).finished.catch(() => {}));
    }
    for (const node of change.updated) if (!change.crossing.has(node)) this.highlight(node);
    // Sections skip their layout off screen again after the last batch.
    Promise.all(running).then(() => {
      if (batch !== this.batch) return;
      for (const section of this.opened) section.style.contentVisibility = '';
      this.opened.clear();
    });
  }

  /** `node` in a copy of its section (same styling), at `rect`. */
  copyAt(layer, node, rect, attrs = {}) {
    const host = el('li', 'section ghost');
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) host.dataset[k] = v;
    this.place(host, rect);
    const list = el('ol', 'items');
    list.append(node);
    host.append(list);
    layer.append(host);
    return host;
  }

  /** A leaving item: out of the flow, fading at its old place under the page. */
  leaveItem(node, id, before) {
    const rect = before.items.get(id);
    this.glides.get(node)?.cancel();
    node.classList.remove('moving', 'crossing');
    if (!near(rect)) { node.remove(); return; }
    this.counts.left += 1;
    this.fadeOut(this.copyAt(this.under, node, rect, before.itemSection.get(id)));
  }

  /** A leaving section: its heading fades where it was. */
  leaveSection(node, id, before) {
    const rect = before.sections.get(id);
    if (!near(rect)) { node.remove(); return; }
    node.lastChild.replaceChildren();
    node.classList.add('ghost');
    this.place(node, rect);
    this.under.append(node);
    this.fadeOut(node);
  }

  /** Fades a node in (where no layout was measured). */
  enter(node) {
    return node.animate([{ opacity: 0 }, { opacity: 1 }], TIMING);
  }

  /** A changed item: a short tint of its background. */
  highlight(node) {
    this.counts.flashed += 1;
    node.animate([{ backgroundColor: 'var(--flash)' }, {}], { duration: DURATION * 2, easing: 'ease-out' });
  }

  /** Gone before new items come in (DELAY). */
  fadeOut(node) {
    node.animate([{ opacity: 1, transform: 'none' }, { opacity: 0, transform: 'scale(.94)' }], { ...TIMING, duration: DELAY, fill: 'forwards' })
      .finished.finally(() => node.remove());
  }

  /** Ghost layers are fixed: a ghost stays where it was seen. */
  place(node, rect) {
    Object.assign(node.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  }
}
