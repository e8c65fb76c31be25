import { DURATION, EASING, Motion, MOTION_LIMIT } from './motion.js';
import { breathe } from './feed.js';
import { TimeFormat, el, heading, ui, words } from './format.js';
import { RovingFocus } from './keyboard.js';
import { openSheet } from './sheet.js';

// The sections' DOM, each item's node kept by its id; motion.js animates the difference.
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

/** The date `days` after the ISO date `iso`. */
function addDays(iso, days) {
  const d = new Date(iso + 'T00:00:00Z');
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** After the next frame is drawn (a hidden tab draws none: 100 ms). */
const drawn = () => new Promise((r) => { requestAnimationFrame(() => setTimeout(r)); setTimeout(r, 100); });

/** Writes `value` only if it changed: each write costs style work. */
const update = (object, key, value) => { if (object[key] !== value) object[key] = value; };

/** Whether two items (flat) have the same content. */
function sameItem(a, b) {
  if (!a) return false;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

// AgendaText's now rule (Tests/Vectors): over once ended; the line before the first to come.
const timed = (i) => i.kind === 'event' && !i.all_day;
export const isOver = (i, now) => timed(i) && Date.parse(i.end) <= now;
export const comesNext = (i, now) => timed(i) && Date.parse(i.start) > now;

/** A section's kind, its layout; an empty date is a kind of its own. */
export function sectionKind(section, today) {
  if (section.items.every((i) => i.kind === 'placeholder')) return 'placeholder'; // (or none: a week day render.js adds)
  return dateRange(section, today);
}

/** Where a date falls: today, tomorrow, the rest of the week, later or past. */
function dateRange(section, today) {
  if (section.label === 'today' || section.label === 'tomorrow') return section.label;
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
    this.why = 'nothingInRange'; // why empty (a key of ui; app.js)
    this.mover = new Motion();
    this.keys = new RovingFocus(root);
    this.animations = this.mover.counts; // (read by the browser tests)
    this.timings = {}; // the last render's, ms
    this.nowLine = el('li', 'now-line');
    this.nowLine.dataset.key = 'now';
    this.away = new Set(); // what changed while the tab was hidden
    // Click, Enter or Space on an event (a button): its detail sheet.
    const open = (event) => {
      const node = event.target.closest?.('.item[data-id]'), item = node && this.itemObjects.get(node.dataset.id);
      if (item?.kind !== 'event' || (event.type === 'keydown' && event.key !== 'Enter' && event.key !== ' ')) return;
      event.preventDefault();
      openSheet(item, node, this.times.full(item), this.tz);
    };
    root.addEventListener('click', open);
    root.addEventListener('keydown', open);
    addEventListener('resize', () => { if (this.wall) { this.fit(); this.placeNowLine(); } });
  }

  get motion() { return !reducedMotion.matches; }

  /** The view's time formatter (new only for a new zone). */
  get times() {
    if (this.timeFormat?.tz !== this.tz) this.timeFormat = new TimeFormat(this.tz);
    return this.timeFormat;
  }

  /** The item's content on `date` (a kept node's inside replaced). */
  fill(node, item, date) {
    node.replaceChildren();
    node.dataset.id = item.id;
    node.dataset.kind = item.kind;
    if (item.kind === 'placeholder') {
      node.className = 'item placeholder';
      node.append(el('span', 'summary', ui.nothingPlanned));
      return;
    }
    node.tabIndex = -1; // (keyboard.js)
    node.setAttribute('role', 'button');
    // A banner: all day or the whole day (a night stays in time order).
    const long = Date.parse(item.end) - Date.parse(item.start) >= 86_400_000;
    const from = item.continues_from_previous_day, to = item.continues_to_next_day;
    const banner = item.all_day || long || (from && to);
    // A long banner says which of its days this is ("day 3 of 16").
    const day = (iso) => Date.parse(iso.slice(0, 10)) / 86_400_000;
    const days = day(item.end) - day(item.start) + (item.all_day || item.end.slice(11, 19) === '00:00:00' ? 0 : 1);
    const nth = day(date) - day(item.start) + 1;
    node.className = 'item' + (banner ? ' banner' : '') + (banner && nth > 1 ? ' later-day' : '') + (item.status ? ' ' + item.status : '');
    node.dataset.calendar = item.calendar || '';
    if (from) node.append(el('span', 'cont from', '◀'));
    const time = banner && days > 1 && (nth > 1 || item.all_day) ? ui.dayOf(nth, days)
      : item.all_day ? ui.allDay
      : from && !to ? ui.until(this.times.time(new Date(item.end)))
      : this.times.range(item.start, item.end);
    node.append(el('span', 'when', time), el('span', 'summary', item.summary || ui.noTitle));
    if (item.status === 'tentative') node.append(el('span', 'status', ui.tentative));
    if (item.location) node.append(el('span', 'location', item.location));
    node.append(el('span', 'calendar', item.calendar));
    if (to) node.append(el('span', 'cont to', '▶'));
    const text = [item.summary || ui.noTitle, item.location, item.calendar].filter(Boolean).join(' · ');
    node.title = text;
    // (placeNowLine adds "over" or "in progress".)
    node.label = [time, text, item.status === 'tentative' && ui.tentative, from && ui.from, to && ui.to].filter(Boolean).join(', ');
    node.setAttribute('aria-label', node.label);
  }

  /** Makes the elements of `sections`' new items ahead of render(), in slices. */
  async prepare(sections) {
    this.made = new Map();
    for (const s of sections) {
      for (const item of s.items) {
        if (this.itemNodes.has(item.id)) continue;
        const node = el('li');
        this.fill(node, item, s.date);
        this.made.set(item.id, node);
        await breathe();
      }
    }
  }

  /** Builds the final DOM; `animate`: motion.js animates from the layout before. A change
   *  of more than MOTION_LIMIT items is not animated; of many new ones, put in place in
   *  slices, the browser drawing between them (no long task). */
  async render(sections, tz, animate) {
    this.tz = tz;
    const today = sections.find((s) => s.label === 'today')?.date ?? this.times.today();
    let added = 0, count = 0;
    for (const s of sections) for (const i of s.items) count += 1, added += !this.itemNodes.has(i.id);
    const motion = animate && this.motion && 2 * added + this.itemNodes.size - count <= MOTION_LIMIT;
    const made = this.made ?? new Map(), sliced = !motion && added > 100;
    // A slice of at most 40 new items or 12 ms, then a frame drawn (laying out only what
    // the slice added).
    let placed = 0, mark = performance.now();
    const pace = async (item) => {
      if ((item ? ++placed % 40 : 1) && performance.now() - mark < 12) return;
      await (document.hidden ? breathe() : drawn());
      mark = performance.now();
    };
    this.made = null;
    const t0 = performance.now();
    // Every read of the old layout, before anything is written.
    const before = motion ? this.mover.measure(this.sectionNodes) : null;
    const t1 = performance.now();
    const change = { entering: new Set(), fresh: new Set(), updated: [], crossing: new Set(), leaving: [], gone: [] };

    const seen = new Set(), keptSections = new Set();
    let previous = null, weekDays = 0;
    for (const section of this.withWeek(sections, today)) {
      if (sliced) await pace();
      keptSections.add(section.id);
      let node = this.sectionNodes.get(section.id);
      if (!node) {
        node = el('li', 'section');
        const title = el('h2', 'heading'), list = el('ol', 'items');
        title.id = 'day-' + this.sectionNodes.size + '-' + Math.random().toString(36).slice(2, 7);
        // A group of buttons named by its heading.
        list.setAttribute('role', 'group');
        list.setAttribute('aria-labelledby', title.id);
        node.append(title, list);
        this.sectionNodes.set(section.id, node);
        change.fresh.add(node);
      }
      const kind = sectionKind(section, today);
      update(node.dataset, 'kind', kind);
      update(node.dataset, 'date', section.date);
      const range = dateRange(section, today); // a placeholder sits where its date would
      update(node.dataset, 'range', range);
      if (range === 'week') weekDays += 1;
      update(node.firstChild, 'textContent', heading(section, range === 'week' ? 'week' : kind));
      this.place(this.root, node, previous);
      previous = node;
      const list = node.lastChild;
      let prevItem = null;
      for (const item of section.items) {
        seen.add(item.id);
        let itemNode = this.itemNodes.get(item.id);
        if (sliced && !itemNode) await pace(true);
        if (!itemNode) {
          itemNode = made.get(item.id);
          if (!itemNode) this.fill(itemNode = el('li'), item, section.date);
          this.itemNodes.set(item.id, itemNode);
          change.entering.add(itemNode);
        } else {
          // Into another section: it flies above the rest.
          if (before?.items.has(item.id) && itemNode.parentNode !== list) change.crossing.add(itemNode);
          // (An unchanged item keeps its object: most stop at `!==`.)
          if (this.itemObjects.get(item.id) !== item && !sameItem(this.itemObjects.get(item.id), item)) {
            this.fill(itemNode, item, section.date);
            change.updated.push(itemNode);
          }
        }
        this.itemObjects.set(item.id, item);
        this.place(list, itemNode, prevItem);
        prevItem = itemNode;
      }
    }
    for (const [id, node] of this.itemNodes) {
      if (seen.has(id)) continue;
      this.itemNodes.delete(id);
      this.itemObjects.delete(id);
      if (before) change.leaving.push([node, id]); else node.remove();
    }
    for (const [id, node] of this.sectionNodes) {
      if (keptSections.has(id)) continue;
      this.sectionNodes.delete(id);
      if (before) change.gone.push([node, id]); else node.remove();
    }
    // As many columns as the week has days: it fills the width.
    const columns = String(Math.max(1, weekDays));
    if (this.root.style.getPropertyValue('--week-columns') !== columns) this.root.style.setProperty('--week-columns', columns);
    if (sliced) await drawn(); // the last slice laid out before the reads below
    this.showEmpty(sections.length === 0, motion);
    if (this.wall) this.fit();
    this.placeNowLine();
    this.keys.update();
    const t2 = performance.now();
    if (document.hidden) for (const n of [...change.entering, ...change.crossing, ...change.updated]) this.away.add(n);
    if (before) this.mover.play(before, this.sectionNodes, change);
    this.timings = { measure: t1 - t0, reconcile: t2 - t1, animate: performance.now() - t2 };
  }

  /** `sections` and, as empty columns, the days of the week row without events: the row
   *  shows every day of the view's week. */
  withWeek(sections, today) {
    const v = this.view;
    if (!v?.days || !sections.length) return sections;
    const first = v.from ?? addDays(today, -(v.past_days || 0)), last = addDays(v.from ?? today, v.days - 1);
    const dates = new Set(sections.map((s) => s.date)), all = sections.slice();
    for (let i = 2; i <= 6; i++) {
      const date = addDays(today, i);
      if (date >= first && date <= last && !dates.has(date)) all.push({ id: date, date, items: [] }); // (eventd's id: its events keep the column)
    }
    return all.length === sections.length ? sections : all.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** Wall mode: what falls below the screen gives way to "+N more" (a day's), and the
   *  days left out are summed up at the foot ("+N more days, M events"), above which
   *  nothing is drawn. */
  fit() {
    for (const n of this.root.querySelectorAll('.more')) n.remove();
    for (const n of this.root.querySelectorAll('[hidden]')) n.hidden = false;
    const mark = parseFloat(getComputedStyle(this.root).fontSize) * 1.8; // a marker's height
    const cuts = [], items = (s) => [...s.lastChild.children].filter((n) => n.dataset.id);
    let foot = innerHeight - 12, days = 0, events = 0;
    const out = [...this.sectionNodes.values()].filter((s) => s.getBoundingClientRect().top > foot - 40);
    if (out.some((s) => items(s).some((i) => i.dataset.kind === 'event'))) foot -= mark;
    for (const section of this.sectionNodes.values()) {
      if (section.getBoundingClientRect().top > foot - 40) {
        cuts.push([section]);
        const n = items(section).filter((i) => i.dataset.kind === 'event').length;
        if (n) days += 1, events += n;
        continue;
      }
      const list = items(section), over = list.findIndex((n) => n.getBoundingClientRect().bottom > foot);
      // The marker takes the place of the last item that fits only if it needs the room.
      if (over >= 0) cuts.push([section, list.slice(over > 0 && list[over - 1].getBoundingClientRect().bottom + mark > foot ? over - 1 : over)]);
    }
    for (const [section, hide] of cuts) {
      if (!hide) { section.hidden = true; continue; }
      for (const n of hide) n.hidden = true;
      hide.at(-1).after(el('li', 'more', ui.more(hide.length)));
    }
    if (days) this.root.append(el('li', 'more days', ui.moreDays(days, events)));
  }

  /** Puts `node` after `previous` (null: first), moving it only if needed. */
  place(parent, node, previous) {
    const want = previous ? previous.nextSibling : parent.firstChild;
    if (want !== node || node.parentNode !== parent) parent.insertBefore(node, want);
  }

  /** An empty view is its own cell, saying why. */
  showEmpty(isEmpty, motion) {
    const why = isEmpty ? this.why : undefined;
    if (this.empty?.dataset.why === why) return;
    this.empty?.remove();
    this.empty = null;
    if (!why) return;
    this.empty = el('li', 'section');
    Object.assign(this.empty.dataset, { kind: 'placeholder', why });
    this.empty.id = 'empty-view';
    const list = el('ol', 'items'), cell = el('li', 'item placeholder');
    cell.append(el('span', 'summary', ui[why]));
    if (why === 'noCalendarsYet') cell.append(el('code', null, 'eventctl import FILE.ics --calendar NAME'));
    list.append(cell);
    this.empty.append(el('h2', 'heading', ui.emptyView), list);
    this.root.append(this.empty);
    if (motion) this.mover.enter(this.empty);
  }

  /** The "now" line before today's first timed item to come (absolute: no cell);
   *  `travel` (the clock's minute, a tab shown again): from its old place to the new one
   *  as an item does, not a jump. */
  placeNowLine(travel = false) {
    const was = travel && this.motion && this.nowLine.isConnected ? this.nowLine.getBoundingClientRect() : null;
    const list = this.root.querySelector('.section[data-kind="today"] .items');
    if (list !== this.nowList) {
      // Placed again when the grid's size changes.
      this.nowObserver ??= new ResizeObserver(() => this.placeNowLine());
      this.nowObserver.disconnect();
      if (list) this.nowObserver.observe(list);
      this.nowList = list;
    }
    const now = Date.now();
    // Over or in progress: seen (dimmed, every layout) and said.
    for (const [id, node] of this.itemNodes) {
      const item = this.itemObjects.get(id), over = isOver(item, now), on = !over && timed(item) && Date.parse(item.start) <= now;
      node.classList.toggle('done', over);
      node.classList.toggle('ongoing', on);
      const label = node.label && node.label + (over ? ', ' + ui.over : on ? ', ' + ui.ongoing : '');
      if (label && node.getAttribute('aria-label') !== label) node.setAttribute('aria-label', label);
    }
    if (!list) { this.nowLine.remove(); return; }
    const label = `${words.now} ${this.times.time(new Date(now))}`;
    if (this.nowLine.textContent !== label) this.nowLine.replaceChildren(el('span', 'label', label));
    if (this.nowLine.parentNode !== list || this.nowLine.nextSibling) list.append(this.nowLine);
    let next = null, last = null;
    for (const node of list.children) {
      const item = this.itemObjects.get(node.dataset.id);
      if (!item || node.hidden) continue;
      last = node;
      if (!next && comesNext(item, now)) next = node;
    }
    // Upright in the gap before the next card; across the row gap when it starts a row.
    const style = getComputedStyle(list);
    const gap = parseFloat(style.columnGap) || 0, rowGap = parseFloat(style.rowGap) || 0;
    const put = (across, left, top, width, height) => {
      this.nowLine.classList.toggle('across', across);
      Object.assign(this.nowLine.style, { left: left + 'px', top: top + 'px', width: width + 'px', height: height + 'px' });
    };
    const across = (top) => put(true, 0, top, list.clientWidth, 0);
    const upright = (left, card) => put(false, left, card.offsetTop, 0, card.offsetHeight);
    if (next && next.offsetLeft > 0) upright(next.offsetLeft - gap / 2, next);
    else if (next) across(next.offsetTop - rowGap / 2);
    else if (last && last.offsetLeft + 2 * last.offsetWidth + gap <= list.clientWidth) upright(last.offsetLeft + last.offsetWidth + gap / 2, last);
    else across(last ? last.offsetTop + last.offsetHeight + rowGap / 2 : 0);
    const is = was && this.nowLine.getBoundingClientRect();
    if (!is || (Math.abs(was.left - is.left) < 1 && Math.abs(was.top - is.top) < 1)) return;
    this.nowLine.animate([{ transform: `translate(${was.left - is.left}px, ${was.top - is.top}px)` }, { transform: 'none' }],
                         { duration: DURATION, easing: EASING });
  }

  /** Marks what changed while the tab was hidden, for a while once it is shown. */
  markAway() {
    const nodes = [...this.away].filter((n) => n.isConnected);
    this.away.clear();
    for (const n of nodes) n.classList.add('changed');
    setTimeout(() => { for (const n of nodes) n.classList.remove('changed'); }, 10_000);
  }

  announce(text) { this.announcer.textContent = text; }
}
