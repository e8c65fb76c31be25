// Motion after layout, as a collection view's: boxes measured before a change and in the
// final layout (new sections at their real size), each displaced element animated from
// its old box to its new one (FLIP). Leaving items fade where they were; an item that
// crosses sections flies on top, cross-fading from a copy in its old styling.

/** The one duration and curve of every motion (Web Animations). */
export const DURATION = 250;
export const EASING = 'cubic-bezier(.2, .7, .3, 1)';
const TIMING = { duration: DURATION, easing: EASING };
/** How far beyond the viewport a node still counts as visible (px). */
const MARGIN = 200;

const visible = (r) => r.bottom > -MARGIN && r.top < innerHeight + MARGIN && r.width > 0;
const moved = (a, b) => Math.abs(a.left - b.left) >= 1 || Math.abs(a.top - b.top) >= 1
  || Math.abs(a.width - b.width) >= 1 || Math.abs(a.height - b.height) >= 1;
const flip = (a, b, scale) => `translate(${a.left - b.left}px, ${a.top - b.top}px)`
  + (scale ? ` scale(${b.width > 0 ? a.width / b.width : 1}, ${b.height > 0 ? a.height / b.height : 1})` : '');
const key = (node) => node.dataset.id ?? node.dataset.key;

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
    this.over = this.layer('ghosts over');
    /** How to stop each gliding node's animations. */
    this.glides = new WeakMap();
    /** Sections without containment while a batch runs. */
    this.opened = new Set();
    this.batch = 0;
    /** How many of each animation ran (read by the browser tests). */
    this.counts = { entered: 0, left: 0, moved: 0, flashed: 0, crossed: 0 };
  }

  layer(className) {
    const layer = document.createElement('div');
    layer.className = className;
    layer.setAttribute('aria-hidden', 'true');
    layer.inert = true;
    document.body.append(layer);
    return layer;
  }

  /** Reads every visible section, heading and item (reads only: one layout). */
  measure(sectionNodes) {
    const layout = new Layout();
    for (const [id, section] of sectionNodes) {
      const r = section.getBoundingClientRect();
      if (!visible(r)) continue;
      layout.sections.set(id, r);
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

  /** Animates from `before` to the DOM render.js built (`change`: see render). */
  play(before, sectionNodes, change) {
    // Writes first: running glides stop (the new one starts where they were), leaving
    // nodes go out of the flow, new sections get their real size (not a guessed one).
    for (const section of sectionNodes.values()) {
      for (const node of section.lastChild.children) this.glides.get(node)?.cancel();
      this.glides.get(section.firstChild)?.cancel();
    }
    for (const [node, id] of change.leaving) this.leaveItem(node, id, before);
    for (const [node, id] of change.gone) this.leaveSection(node, id, before);
    const batch = ++this.batch;
    const open = (s) => { s.style.contentVisibility = 'visible'; this.opened.add(s); };
    for (const s of change.fresh) open(s);
    // Reads: the final layout (a skipped section now in view is opened and all read again).
    let rects;
    for (let pass = 0; pass < 3; pass++) {
      rects = new Map();
      const closed = [];
      for (const [id, s] of sectionNodes) {
        const r = s.getBoundingClientRect();
        rects.set(id, r);
        if (visible(r) && !this.opened.has(s) && !before.sections.has(id)) closed.push(s);
      }
      if (closed.length === 0) break;
      closed.forEach(open);
    }
    const moves = [], fades = [];
    for (const [id, section] of sectionNodes) {
      if (!visible(rects.get(id)) && !before.sections.has(id)) continue;
      const heading = section.firstChild;
      if (change.fresh.has(section)) fades.push(heading);
      else if (before.headings.has(id)) moves.push([heading, before.headings.get(id), heading.getBoundingClientRect()]);
      for (const node of section.lastChild.children) {
        const first = before.items.get(key(node));
        if (first) moves.push([node, first, node.getBoundingClientRect()]);
        else fades.push(node);
      }
    }
    // Only writes from here on; sections seen before open so cards paint over their edges.
    for (const id of before.sections.keys()) if (sectionNodes.has(id)) open(sectionNodes.get(id));
    const running = [];
    for (const [node, first, last] of moves) {
      const copy = change.crossing.get(node);
      if (!copy && !moved(first, last)) continue;
      const item = node.tagName === 'LI';
      const a = node.animate([{ transform: flip(first, last, item), transformOrigin: '0 0' },
                              { transform: 'none', transformOrigin: '0 0' }], TIMING);
      // Content counter-scaled: drawn at its final size, text never stretches.
      const sx = item && last.width > 0 ? first.width / last.width : 1, sy = item && last.height > 0 ? first.height / last.height : 1;
      const counters = sx === 1 && sy === 1 ? [] : [...node.children].map((child) =>
        child.animate([{ transform: `scale(${1 / sx}, ${1 / sy})`, transformOrigin: '0 0' },
                       { transform: 'none', transformOrigin: '0 0' }], TIMING));
      const mark = copy ? 'crossing' : 'moving';
      if (copy) counters.push(this.crossFade(node, copy, first, last, before));
      node.classList.add(mark);
      this.glides.set(node, { cancel: () => { a.cancel(); for (const c of counters) c.cancel(); } });
      if (item && key(node) !== 'now') this.counts.moved += 1;
      const done = () => node.classList.remove(mark);
      running.push(a.finished.then(done, done));
    }
    // A new item grows from its corner (neighbours move away from it, never overlap).
    for (const node of fades) {
      // (A kept item unseen before, off screen, only fades: it comes from nowhere.)
      const item = node.tagName === 'LI' && (change.entering.has(node) || !key(node));
      if (item && node.dataset.id) this.counts.entered += 1;
      const from = item ? { opacity: 0, transform: 'scale(.01)', transformOrigin: '0 0' } : { opacity: 0 };
      running.push(node.animate([from, { opacity: 1, transform: 'none', transformOrigin: '0 0' }], TIMING).finished.catch(() => {}));
    }
    for (const node of change.updated) if (!change.crossing.has(node)) this.highlight(node);
    // Sections skip their layout off screen again after the last batch.
    Promise.all(running).then(() => {
      if (batch !== this.batch) return;
      for (const section of this.opened) section.style.contentVisibility = '';
      this.opened.clear();
    });
  }

  /** A copy in the old styling rides the crossing item's path, fading out as it fades in. */
  crossFade(node, copy, first, last, before) {
    this.counts.crossed += 1;
    const host = this.copyAt(this.over, copy, first, before.itemSection.get(key(node)));
    const ride = host.animate([{ transform: 'none', opacity: 1, transformOrigin: '0 0' },
                               { transform: flip(last, first, true), opacity: 0, transformOrigin: '0 0' }], TIMING);
    ride.finished.finally(() => host.remove());
    const show = node.animate([{ opacity: 0 }, { opacity: 1 }], TIMING);
    return { cancel: () => { ride.cancel(); show.cancel(); } };
  }

  /** `node` in a copy of a section (same kind, so the same styling), at `rect`. */
  copyAt(layer, node, rect, attrs = {}) {
    const host = document.createElement('li');
    host.className = 'section ghost';
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) host.dataset[k] = v;
    this.place(host, rect);
    const list = document.createElement('ol');
    list.className = 'items';
    list.append(node);
    host.append(list);
    layer.append(host);
    return host;
  }

  /** A leaving item: out of the flow, kept at its old place under the page, fading. */
  leaveItem(node, id, before) {
    const rect = before.items.get(id);
    this.glides.get(node)?.cancel();
    node.classList.remove('moving', 'crossing');
    if (!rect) { node.remove(); return; }
    this.counts.left += 1;
    this.fadeOut(this.copyAt(this.under, node, rect, before.itemSection.get(id)));
  }

  /** A leaving section: its heading fades where it was (its items went their own ways). */
  leaveSection(node, id, before) {
    const rect = before.sections.get(id);
    if (!rect) { node.remove(); return; }
    node.lastChild.replaceChildren();
    node.classList.add('ghost');
    this.place(node, rect);
    this.under.append(node);
    this.fadeOut(node);
  }

  /** Fades a new node in where no layout was measured (the empty view's cell). */
  enter(node) {
    node.animate([{ opacity: 0 }, { opacity: 1 }], TIMING);
  }

  /** A changed item: a short, subtle tint of its background (a colour, not a motion). */
  highlight(node) {
    this.counts.flashed += 1;
    node.animate([{ backgroundColor: 'var(--flash)' }, {}], { duration: DURATION * 2, easing: 'ease-out' });
  }

  fadeOut(node) {
    node.animate([{ opacity: 1, transform: 'none' }, { opacity: 0, transform: 'scale(.94)' }], { ...TIMING, fill: 'forwards' })
      .finished.finally(() => node.remove());
  }

  /** Ghost layers are fixed: a ghost stays where it was seen, whatever the scroll does. */
  place(node, rect) {
    Object.assign(node.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  }
}
