// Motion as a collection view does it: measure every visible item, heading and the
// "now" line before a change, let render.js apply it, measure again, and animate every
// node whose place changed (FLIP), all in one batch with one curve and one duration.
// Leaving items and sections are taken out of the flow but stay where they were, in
// their section's styling, while they fade; a moved item keeps its node and glides,
// also into a new section or out of one that goes.

/** The one duration and curve of every motion (Web Animations). */
export const DURATION = 250;
export const EASING = 'cubic-bezier(.2, .7, .3, 1)';
const TIMING = { duration: DURATION, easing: EASING };
/** How far beyond the viewport a node still counts as visible (px). */
const MARGIN = 200;

const visible = (r) => r.bottom > -MARGIN && r.top < innerHeight + MARGIN && r.width > 0;
const moved = (a, b) => Math.abs(a.left - b.left) >= 1 || Math.abs(a.top - b.top) >= 1
  || Math.abs(a.width - b.width) >= 1 || Math.abs(a.height - b.height) >= 1;

/** Where things were: rects in viewport coordinates, keyed by item id or section id. */
class Layout {
  constructor() {
    this.items = new Map();
    this.headings = new Map();
    this.sections = new Map();
    /** The section attributes each measured item was drawn with (for its ghost). */
    this.itemSection = new Map();
  }
}

export class Motion {
  constructor() {
    this.layer = document.createElement('div');
    this.layer.className = 'ghosts';
    this.layer.setAttribute('aria-hidden', 'true');
    document.body.append(this.layer);
    /** How to stop each gliding node's animations (a new change starts from where it is). */
    this.glides = new WeakMap();
    /** Sections painted outside their box while a batch runs (no paint containment). */
    this.opened = new Set();
    this.batch = 0;
    /** How many of each animation ran (read by the browser tests). */
    this.counts = { entered: 0, left: 0, moved: 0, flashed: 0 };
  }

  /** Reads where every visible section, heading and item is (reads only: one layout). */
  measure(sectionNodes) {
    const layout = new Layout();
    for (const [id, section] of sectionNodes) {
      const r = section.getBoundingClientRect();
      if (!visible(r)) continue;
      layout.sections.set(id, r);
      layout.headings.set(id, section.firstChild.getBoundingClientRect());
      const attrs = { kind: section.dataset.kind, range: section.dataset.range, date: section.dataset.date };
      for (const node of section.lastChild.children) {
        const key = node.dataset.id ?? node.dataset.key;
        if (!key) continue;
        layout.items.set(key, node.getBoundingClientRect());
        layout.itemSection.set(key, attrs);
      }
    }
    return layout;
  }

  /** A leaving item: out of the flow, kept at its old place inside a copy of its old
   *  section (same kind, so the same styling), fading out; removed when done. */
  leaveItem(node, key, before) {
    const rect = before.items.get(key);
    this.glides.get(node)?.cancel();
    node.classList.remove('moving');
    if (!rect) { node.remove(); return; }
    const host = this.ghost('li', 'section ghost', rect, before.itemSection.get(key));
    const list = document.createElement('ol');
    list.className = 'items';
    list.append(node);
    host.append(list);
    this.counts.left += 1;
    this.fadeOut(host);
  }

  /** A leaving section: its heading stays where it was and fades out (its items went
   *  their own ways: moved, or leaving as items). */
  leaveSection(node, id, before) {
    const rect = before.sections.get(id);
    if (!rect) { node.remove(); return; }
    node.lastChild.replaceChildren();
    node.classList.add('ghost');
    this.place(node, rect);
    this.layer.append(node);
    this.fadeOut(node);
  }

  /** Animates from `before` to the current layout: every kept node whose place changed
   *  glides, new ones fade in. `entering` holds new item nodes, `fresh` new section
   *  nodes, `updated` item nodes whose content changed. */
  play(before, sectionNodes, entering, fresh, updated) {
    // A glide still running is dropped first, so that "after" is the node's own place;
    // its "before" was read with the glide's transform: the new glide starts from there.
    for (const section of sectionNodes.values()) {
      for (const node of section.lastChild.children) this.glides.get(node)?.cancel();
      this.glides.get(section.firstChild)?.cancel();
    }
    const moves = [], fades = [], shown = [];
    for (const [id, section] of sectionNodes) {
      const r = section.getBoundingClientRect();
      const wasVisible = before.sections.has(id);
      if (!visible(r) && !wasVisible) continue;
      shown.push(section);
      const heading = section.firstChild;
      if (fresh.has(section)) fades.push(heading);
      else if (before.headings.has(id)) moves.push([heading, before.headings.get(id), heading.getBoundingClientRect(), false]);
      for (const node of section.lastChild.children) {
        const key = node.dataset.id ?? node.dataset.key;
        const first = before.items.get(key);
        if (entering.has(node) || !first) { fades.push(node); continue; }
        moves.push([node, first, node.getBoundingClientRect(), true]);
      }
    }
    // Everything was read above; only writes from here on.
    const batch = ++this.batch;
    for (const section of shown) { section.style.contentVisibility = 'visible'; this.opened.add(section); }
    const running = [];
    for (const [node, first, last, scale] of moves) {
      if (!moved(first, last)) continue;
      const dx = first.left - last.left, dy = first.top - last.top;
      const sx = scale && last.width > 0 ? first.width / last.width : 1;
      const sy = scale && last.height > 0 ? first.height / last.height : 1;
      const a = node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, transformOrigin: '0 0' },
                              { transform: 'none', transformOrigin: '0 0' }], TIMING);
      // The content is drawn at its new size at once (as a collection view's cell lays
      // out at its final size): counter-scaled, text does not stretch while the box does.
      const counters = sx === 1 && sy === 1 ? [] : [...node.children].map((child) =>
        child.animate([{ transform: `scale(${1 / sx}, ${1 / sy})`, transformOrigin: '0 0' },
                       { transform: 'none', transformOrigin: '0 0' }], TIMING));
      node.classList.add('moving');
      this.glides.set(node, { cancel: () => { a.cancel(); for (const c of counters) c.cancel(); } });
      if (scale) this.counts.moved += 1;
      running.push(a.finished.then(() => node.classList.remove('moving'), () => node.classList.remove('moving')));
    }
    // A new item grows from its top-left corner as it fades in: neighbours pushed aside
    // move away from that corner on the same curve, so the two never overlap.
    for (const node of fades) {
      const item = node.tagName === 'LI';
      if (item && node.dataset.id) this.counts.entered += 1;
      const from = item ? { opacity: 0, transform: 'scale(.01)', transformOrigin: '0 0' } : { opacity: 0 };
      const to = item ? { opacity: 1, transform: 'none', transformOrigin: '0 0' } : { opacity: 1 };
      running.push(node.animate([from, to], TIMING).finished.catch(() => {}));
    }
    for (const node of updated) this.flash(node);
    // Sections go back to skipping their paint off screen once the last batch is done.
    Promise.all(running).then(() => {
      if (batch !== this.batch) return;
      for (const section of this.opened) section.style.contentVisibility = '';
      this.opened.clear();
    });
  }

  /** Fades a new node in where no layout was measured (the empty view's cell). */
  enter(node) {
    node.animate([{ opacity: 0 }, { opacity: 1 }], TIMING);
  }

  /** Flashes an updated item once (its background, the same curve, a longer time: a
   *  colour to notice, not a motion). */
  flash(node) {
    this.counts.flashed += 1;
    node.animate([{ backgroundColor: 'var(--flash)' }, { backgroundColor: 'var(--flash)', offset: 0.3 }, {}],
      { duration: DURATION * 4, easing: EASING });
  }

  fadeOut(node) {
    node.animate([{ opacity: 1, transform: 'none' }, { opacity: 0, transform: 'scale(.94)' }], { ...TIMING, fill: 'forwards' })
      .finished.finally(() => node.remove());
  }

  /** A node for the ghost layer, at `rect`. */
  ghost(tag, className, rect, attrs = {}) {
    const node = document.createElement(tag);
    node.className = className;
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.dataset[k] = v;
    this.place(node, rect);
    this.layer.append(node);
    return node;
  }

  /** The ghost layer is fixed to the viewport: a ghost stays exactly where it was seen,
   *  whatever scroll anchoring does to the page under it. */
  place(node, rect) {
    node.style.left = `${rect.left}px`;
    node.style.top = `${rect.top}px`;
    node.style.width = `${rect.width}px`;
    node.style.height = `${rect.height}px`;
  }
}
