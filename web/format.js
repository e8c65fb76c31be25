// Words, times and dates in the browser's locale; calendar colours; el().

const locale = undefined; // the browser's
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
const LONG_DATE = new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
const FULL_DATE = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
const SHORT_DATE = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
const capitalised = (s) => s.charAt(0).toLocaleUpperCase() + s.slice(1);
const language = new Intl.DateTimeFormat().resolvedOptions().locale.split('-')[0];

/** The page's words: index.html's catalogue (#words) in the language, else English.
 *  "{0}", "{name}" take arguments. */
const catalogue = JSON.parse(document.getElementById('words').textContent);
const say = (text) => (text.includes('{') ? (...args) => text.replace(/\{(\w+)\}/g, (_, k) => (typeof args[0] === 'object' ? args[0] : args)[k]) : text);
export const ui = Object.fromEntries(Object.entries({ ...catalogue.en, ...catalogue[language] }).map(([k, v]) => [k, say(v)]));
ui.timeZone = capitalised(new Intl.DisplayNames(locale, { type: 'dateTimeField' }).of('timeZoneName'));

/** Puts the words in place (`data-word`: text, `data-word-label`: name), and `lang`: the
 *  locale's (its dates and times), English where the catalogue lacks a word. */
export function localisePage(root = document) {
  root.documentElement.lang = language;
  for (const node of root.querySelectorAll('[data-word]')) {
    node.textContent = ui[node.dataset.word];
    if (!catalogue[language]?.[node.dataset.word]) node.lang = 'en';
  }
  for (const node of root.querySelectorAll('[data-word-label]')) node.setAttribute('aria-label', ui[node.dataset.wordLabel]);
}

/** "now", "jetzt", "maintenant"... */
export const words = { now: relative.format(0, 'second') };

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** "Today · Sunday, November 29"; short for week columns. */
export function heading(section, kind) {
  const date = new Date(section.date + 'T12:00:00Z');
  const long = LONG_DATE.format(date);
  const offset = { today: 0, tomorrow: 1 }[section.label];
  if (offset !== undefined) return `${capitalised(relative.format(offset, 'day'))} · ${long}`;
  if (kind !== 'week') return long;
  // "Mon 7", not "7 Mon": the weekday first.
  const parts = SHORT_DATE.formatToParts(date), part = (t) => parts.find((p) => p.type === t)?.value;
  return parts[0].type === 'day' ? `${part('weekday')} ${part('day')}` : SHORT_DATE.format(date);
}

/** Times in one zone (a formatter costs more to make than to use). */
export class TimeFormat {
  constructor(tz) {
    this.tz = tz;
    // Two-digit hours where the locale counts 24 ("01:00", as its ranges write).
    const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
    const hour = cycle === 'h23' || cycle === 'h24' ? '2-digit' : 'numeric';
    this.format = new Intl.DateTimeFormat(locale, { hour, minute: '2-digit', timeZone: tz });
    this.day = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    // What the locale writes after a range's times ("Uhr") but not after one time.
    const t = Date.UTC(2026, 0, 1, 9), tail = this.format.formatRange(t, t + 3_600_000).match(/\D*$/)[0];
    this.tail = /\d$/.test(this.format.format(t)) && tail.trim() ? tail : '';
    this.weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: tz });
    this.long = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone: tz });
  }

  /** Today here, YYYY-MM-DD. */
  today() {
    const parts = this.day.formatToParts(new Date(Date.now())), get = (t) => parts.find((p) => p.type === t).value;
    return `${get('year')}-${get('month')}-${get('day')}`;
  }

  /** An item's whole time, with dates (the detail sheet). */
  full(item) {
    if (!item.all_day) return this.long.formatRange(new Date(item.start), new Date(item.end));
    const a = Date.parse(item.start);
    return FULL_DATE.formatRange(a, Math.max(a, Date.parse(item.end) - 86_400_000));
  }

  /** The locale's range ("09:00–10:30 Uhr"); times only for a night; weekdays for longer. */
  range(start, end) {
    const a = new Date(start), b = new Date(end);
    if (!(b > a)) return this.time(a);
    const long = b - a >= 86_400_000, at = (d) => (long ? this.weekday.format(d) + ' ' : '') + this.format.format(d);
    if (long || this.day.format(a) !== this.day.format(b)) return `${at(a)} – ${at(b)}${this.tail}`;
    return this.format.formatRange(a, b);
  }

  /** One time, with the locale's "Uhr". */
  time(date) { return this.format.format(date) + this.tail; }
}

/** Colours (Tableau 10) for calendars with none, by the name's FNV-1a (AgendaText). */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
export const paletteColour = (name) => {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % 10];
};
export const channels = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const luminance = (c) => c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
  .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
/** Each scheme's card and banner (style.css), and what a colour is mixed toward. */
const GROUNDS = [[[255, 255, 255], [231, 238, 252], 0], [[27, 32, 39], [35, 48, 74], 255]];

/** `rgb` as ink of 4.5:1 on cards and banners, mixed only as far as needed. */
export function inks(rgb) {
  return GROUNDS.map(([card, banner, toward]) => {
    let c = rgb;
    for (let i = 0; i < 20 && Math.min(contrast(c, card), contrast(c, banner)) < 4.5; i++) c = c.map((v) => Math.round(v + (toward - v) * 0.1));
    return `rgb(${c.join(' ')})`;
  });
}

/** A CSS colour (`#rrggbb`, a name) as [r, g, b] (null: no such colour). */
function rgbOf(colour) {
  const probe = document.createElement('i');
  probe.style.color = colour;
  if (!probe.style.color) return null;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color.match(/[\d.]+/g).slice(0, 3).map(Number);
  probe.remove();
  return rgb;
}

/** Each calendar's colour for `[data-calendar]`: `chosen`'s, else the palette's. */
export function paintCalendars(names, chosen = {}) {
  const rules = names.map((name) => {
    const [light, dark] = inks((chosen[name] && rgbOf(chosen[name])) || channels(paletteColour(name)));
    return `[data-calendar="${CSS.escape(name)}"]{--cal-l:${light};--cal-d:${dark}}`;
  });
  // A constructed sheet (the CSP allows no inline style), replaced only on a change.
  const text = rules.join('\n');
  if (colourSheet.text !== text) colourSheet.replaceSync(colourSheet.text = text);
}
const colourSheet = new CSSStyleSheet();
document.adoptedStyleSheets = [...document.adoptedStyleSheets, colourSheet];
