// Draws the sections and keeps each item's DOM node by its id across diffs: inserts
// fade in, deletes fade out, moves glide to their new place (FLIP), updates flash once.
// One ordered list of sections; each section's kind (today, tomorrow, week, later,
// past, placeholder) picks its layout in style.css.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const GLIDE_MS = 350;
const LONG_DATE = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
const SHORT_DATE = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The date `days` after the ISO date `iso`. */
function addDays(iso, days) {
  const d = new Date(iso + 'T00:00:00Z');
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whether two items have the same content (fields are flat: strings, booleans, null). */
function sameItem(a, b) {
  if (!a) return false;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/** Today's date in `tz`, as YYYY-MM-DD. */
export function todayIn(tz) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(new Date());
  const get = (t) => parts.find((p) => p.type === t).value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** A section's kind, which decides its layout; an empty date is a kind of its own. */
export function sectionKind(section, today) {
  if (section.items.length > 0 && section.items.every((i) => i.kind === 'placeholder')) return 'placeholder';
  return dateRange(section, today);
}

/** Where a date falls: today, tomorrow, the rest of the week, later or past. */
function dateRange(section, today) {
  if (section.label === 'today') return 'today';
  if (section.label === 'tomorrow') return 'tomorrow';
  if (section.date < today) return 'past';
  return section.date <= addDays(today, 6) ? 'week' : 'later';
}

export class AgendaView {
  constructor(root, announcer) {
    this.root = root;
    this.announcer = announcer;
    this.sectionNodes = new Map();
    this.itemNodes = new Map();
    this.itemObjects = new Map();
    this.tz = 'UTC';
    this.empty = null;
    /** How many of each animation ran (read by the browser tests). */
    this.animations = { entered: 0, left: 0, moved: 0, flashed: 0 };
    /** Where the last render's time went (ms). */
    this.timings = {};
    this.nowLine = el('li', 'now-line');
    this.nowLine.setAttribute('aria-hidden', 'true');
    // Which sections are on screen (or near), kept by the browser without forcing
    // layout: only their items are measured for FLIP, so skipped sections stay skipped.
    this.onScreen = new Set();
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) { if (e.isIntersecting) this.onScreen.add(e.target); else this.onScreen.delete(e.target); }
    }, { rootMargin: '200px 0px' });
    this.ghosts = el('div', 'ghosts');
    this.ghosts.setAttribute('aria-hidden', 'true');
    document.body.append(this.ghosts);
  }

  get motion() { return !reducedMotion.matches; }

  /** Formats a time of an item in the view's zone (one formatter per zone: making
   *  one costs far more than using it). */
  time(iso) {
    if (this.timeFormatZone !== this.tz) {
      this.timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: this.tz });
      this.timeFormatZone = this.tz;
    }
    return this.timeFormat.format(new Date(iso));
  }

  heading(section, kind) {
    const date = new Date(section.date + 'T12:00:00Z');
    const long = LONG_DATE.format(date);
    const short = SHORT_DATE.format(date);
    if (section.label) return `${section.label[0].toUpperCase()}${section.label.slice(1)} · ${long}`;
    return kind === 'week' ? short : long;
  }

  /** The item's content (its node is kept; only the inside is replaced on update). */
  fill(node, item) {
    node.replaceChildren();
    node.dataset.id = item.id;
    node.dataset.kind = item.kind;
    if (item.kind === 'placeholder') {
      node.className = 'item placeholder';
      node.append(el('span', 'summary', 'Nothing planned'));
      return;
    }
    // Focusable, so the keyboard can step through events (their title says it all).
    node.tabIndex = 0;
    const banner = item.all_day || item.continues_from_previous_day || item.continues_to_next_day;
    node.className = 'item' + (banner ? ' banner' : '') + (item.status === 'tentative' ? ' tentative' : '');
    if (item.continues_from_previous_day) node.append(el('span', 'cont from', '◀'));
    const when = el('span', 'when', item.all_day ? 'All day' : `${this.time(item.start)}–${this.time(item.end)}`);
    const what = el('span', 'summary', item.summary || '(no title)');
    node.append(when, what);
    if (item.location) node.append(el('span', 'location', item.location));
    node.append(el('span', 'calendar', item.calendar));
    if (item.continues_to_next_day) node.append(el('span', 'cont to', '▶'));
    node.title = [item.summary, item.location, item.calendar].filter(Boolean).join(' · ');
    node.setAttribute('aria-label', `${when.textContent}, ${node.title}`
      + (item.continues_from_previous_day ? ', continued from the day before' : '')
      + (item.continues_to_next_day ? ', continues the next day' : ''));
  }

  /** Draws `sections`; with `animate`, changes since the last draw are animated and the
   *  items whose ids are in `moved` (the diff's `items.moved`) glide to their places. */
  render(sections, tz, animate, moved = []) {
    this.tz = tz;
    const today = sections.find((s) => s.label === 'today')?.date ?? todayIn(tz);
    const motion = animate && this.motion;
    const t0 = performance.now();
    const scroll = { x: scrollX, y: scrollY }; // read before any change: it flushes layout
    const before = new Map();
    // Only the items the diff moves (FLIP: before and after) and those that leave (to
    // fade out where they were) are measured, and only on screen: everything is read
    // before anything is written, and a diff that moves nothing forces no layout after.
    const leaving = new Map();
    if (motion) {
      const incoming = new Set();
      for (const section of sections) for (const item of section.items) incoming.add(item.id);
      const measure = (id, into) => {
        const node = this.itemNodes.get(id);
        if (node && this.onScreen.has(node.closest('.section'))) into.set(id, node.getBoundingClientRect());
      };
      for (const id of moved) measure(id, before);
      for (const id of this.itemNodes.keys()) if (!incoming.has(id)) measure(id, leaving);
    }
    const t1 = performance.now();
    this.nowLine.remove();

    const seen = new Set();
    const keptSections = new Set();
    let previous = null;
    for (const section of sections) {
      keptSections.add(section.id);
      let node = this.sectionNodes.get(section.id);
      if (!node) {
        node = el('li', 'section');
        node.append(el('h2', 'heading'), el('ol', 'items'));
        this.sectionNodes.set(section.id, node);
        this.observer.observe(node);
        if (motion) this.enter(node);
      }
      const kind = sectionKind(section, today);
      // (Attributes and text are written only when they change: each write costs style work.)
      if (node.dataset.kind !== kind) node.dataset.kind = kind;
      if (node.dataset.date !== section.date) node.dataset.date = section.date;
      const range = dateRange(section, today); // a placeholder cell sits where its date would
      if (node.dataset.range !== range) node.dataset.range = range;
      const heading = this.heading(section, kind);
      if (node.firstChild.textContent !== heading) node.firstChild.textContent = heading;
      this.place(this.root, node, previous);
      previous = node;
      const list = node.lastChild;
      let prevItem = null;
      for (const item of section.items) {
        seen.add(item.id);
        let itemNode = this.itemNodes.get(item.id);
        if (!itemNode) {
          itemNode = el('li');
          this.fill(itemNode, item);
          this.itemNodes.set(item.id, itemNode);
          if (motion) { this.enter(itemNode); this.animations.entered += 1; }
        } else if (this.itemObjects.get(item.id) !== item && !sameItem(this.itemObjects.get(item.id), item)) {
          // applyChanges keeps the object of an unchanged item: most items stop at `!==`.
          this.fill(itemNode, item);
          if (motion) this.flash(itemNode);
        }
        this.itemObjects.set(item.id, item);
        this.place(list, itemNode, prevItem);
        prevItem = itemNode;
      }
    }
    // Deleted items fade out where they were; deleted sections go.
    for (const [id, node] of this.itemNodes) {
      if (seen.has(id)) continue;
      this.itemNodes.delete(id);
      this.itemObjects.delete(id);
      if (leaving.has(id)) this.fadeOut(node, leaving.get(id), scroll); else node.remove();
    }
    for (const [id, node] of this.sectionNodes) {
      if (!keptSections.has(id)) {
        node.remove();
        this.sectionNodes.delete(id);
        this.observer.unobserve(node);
        this.onScreen.delete(node);
      }
    }
    this.showEmpty(sections.length === 0);
    this.placeNowLine();
    const t2 = performance.now();
    if (motion) this.glide(before);
    this.timings = { measure: t1 - t0, reconcile: t2 - t1, glide: performance.now() - t2 };
  }

  /** Puts `node` right after `previous` (first when null), moving it only if needed. */
  place(parent, node, previous) {
    const want = previous ? previous.nextSibling : parent.firstChild;
    if (want !== node || node.parentNode !== parent) parent.insertBefore(node, want);
  }

  /** FLIP: each kept item starts where it was and glides to where it is. All the
   *  positions are read before anything is written, so layout runs once, not per item. */
  glide(before) {
    const moves = [];
    // Only what is on screen (before or after) glides; the rest just takes its place.
    const top = -200, bottom = innerHeight + 200;
    const visible = (r) => r.bottom > top && r.top < bottom;
    for (const [id, first] of before) {
      const node = this.itemNodes.get(id);
      if (!node) continue;
      const last = node.getBoundingClientRect();
      if (!visible(first) && !visible(last)) continue;
      const dx = first.left - last.left, dy = first.top - last.top;
      if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) moves.push([node, dx, dy]);
    }
    for (const [node, dx, dy] of moves) {
      this.animations.moved += 1;
      node.classList.add('moving');
      node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }],
        { duration: GLIDE_MS, easing: 'cubic-bezier(.2,.8,.2,1)' }).finished
        .then(() => node.classList.remove('moving'), () => node.classList.remove('moving'));
    }
  }

  /** Fades a new node in (the class goes when done: a node moved later would replay it). */
  enter(node) {
    node.classList.add('entering');
    node.addEventListener('animationend', () => node.classList.remove('entering'), { once: true });
  }

  /** Flashes an updated item once (a flash already running just goes on). */
  flash(node) {
    this.animations.flashed += 1;
    if (node.classList.contains('updated')) return;
    node.classList.add('updated');
    node.addEventListener('animationend', () => node.classList.remove('updated'), { once: true });
  }

  fadeOut(node, rect, scroll) {
    this.animations.left += 1;
    node.classList.add('leaving');
    node.style.left = `${rect.left + scroll.x}px`;
    node.style.top = `${rect.top + scroll.y}px`;
    node.style.width = `${rect.width}px`;
    this.ghosts.append(node);
    node.animate([{ opacity: 1 }, { opacity: 0 }], { duration: GLIDE_MS }).finished.finally(() => node.remove());
  }

  /** An empty view is its own cell, not a blank page. */
  showEmpty(isEmpty) {
    if (isEmpty && !this.empty) {
      this.empty = el('li', 'section');
      this.empty.dataset.kind = 'placeholder';
      this.empty.id = 'empty-view';
      const list = el('ol', 'items');
      const cell = el('li', 'item placeholder');
      cell.append(el('span', 'summary', 'Nothing planned'));
      list.append(cell);
      this.empty.append(el('h2', 'heading', 'No events in this view'), list);
      this.root.append(this.empty);
    } else if (!isEmpty && this.empty) {
      this.empty.remove();
      this.empty = null;
    }
  }

  /** The "now" line in today's list, before the first timed item not yet started. */
  placeNowLine() {
    this.nowLine.remove();
    const section = this.root.querySelector('.section[data-kind="today"] .items');
    if (!section) return;
    const now = Date.now();
    this.nowLine.textContent = `now ${this.time(new Date(now).toISOString())}`;
    let next = null;
    for (const node of section.children) {
      const item = this.itemObjects.get(node.dataset.id);
      if (item && item.kind === 'event' && !item.all_day && Date.parse(item.start) > now) { next = node; break; }
    }
    section.insertBefore(this.nowLine, next);
  }

  announce(text) { this.announcer.textContent = text; }
}
