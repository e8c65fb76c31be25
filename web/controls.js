// The view's controls, kept in the URL, changed in place. All calendars: no `calendar`;
// none: `calendar=`.
import { el, paintCalendars } from './format.js';

/** The calendars a view's parameters choose: null for all, [] for none. */
export function chosenCalendars(params) {
  if (!params.has('calendar')) return null;
  return params.getAll('calendar').flatMap((c) => c.split(',')).filter(Boolean);
}

export class Controls {
  /** `onChange(params)`: the controls' new parameters. */
  constructor(form, browserZone, onChange) {
    this.form = form;
    this.browserZone = browserZone;
    this.onChange = onChange;
    this.known = new Set();
    this.box = form.querySelector('#calendars');
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    const list = document.getElementById('zones');
    for (const z of zones) list.append(Object.assign(el('option'), { value: z }));
    // Enter in a field submits the form: a change of the view, not a page load.
    form.addEventListener('submit', (event) => { event.preventDefault(); this.changed(); });
    form.addEventListener('change', (event) => { if (event.target.name !== 'tz') this.changed(); });
    form.tz.addEventListener('change', () => this.changed());
    const toggle = document.getElementById('controls-toggle');
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      document.body.classList.toggle('controls-open', open);
    });
  }

  show(params) {
    this.params = new URLSearchParams(params);
    const days = params.get('days') || '14';
    const select = this.form.days;
    if (![...select.options].some((o) => o.value === days)) {
      // A number the list lacks (?days=5): offered as it is.
      const after = [...select.options].find((o) => Number(o.value) > Number(days));
      select.insertBefore(el('option', null, days), after ?? null);
    }
    select.value = days;
    this.form.tz.value = params.get('tz') || this.browserZone;
    this.form.empty_days.checked = params.get('empty_days') === 'placeholder';
    for (const c of chosenCalendars(params) ?? []) this.known.add(c);
    this.drawCalendars();
  }

  addCalendars(names) {
    const before = this.known.size;
    for (const n of names) if (n) this.known.add(n);
    if (this.known.size !== before) this.drawCalendars();
  }

  /** eventd's calendars and colours: a removed one leaves the list. */
  setCalendars(names, colours) {
    this.known = new Set(names);
    this.colours = colours ?? {};
    this.drawCalendars();
  }

  drawCalendars() {
    const chosen = chosenCalendars(this.params), names = [...this.known].sort();
    const ticked = (name) => chosen === null || chosen.includes(name);
    paintCalendars(names, this.colours);
    // Drawn again only for a new list: a box keeps its node (and the focus).
    if (this.box.dataset.names === JSON.stringify(names)) {
      for (const box of this.box.querySelectorAll('input')) box.checked = ticked(box.value);
      return;
    }
    this.box.dataset.names = JSON.stringify(names);
    const boxes = names.map((name) => {
      const label = el('label'), swatch = el('span', 'swatch');
      const input = Object.assign(el('input'), { type: 'checkbox', name: 'calendar', value: name, checked: ticked(name) });
      swatch.dataset.calendar = name;
      swatch.setAttribute('aria-hidden', 'true');
      label.append(input, swatch, name);
      return label;
    });
    this.box.querySelectorAll('label').forEach((l) => l.remove());
    this.box.append(...boxes);
  }

  /** Calls `onChange` when the controls say other parameters. */
  changed() {
    const next = new URLSearchParams(this.params);
    next.set('days', this.form.days.value);
    next.set('tz', this.form.tz.value.trim() || this.browserZone);
    if (this.form.empty_days.checked) next.set('empty_days', 'placeholder'); else next.delete('empty_days');
    next.delete('calendar');
    const boxes = [...this.form.querySelectorAll('input[name="calendar"]')];
    const checked = boxes.filter((b) => b.checked).map((b) => b.value);
    if (checked.length === 0 && boxes.length > 0) next.set('calendar', '');
    else if (checked.length < boxes.length) for (const c of checked) next.append('calendar', c);
    if (next.toString() === this.params.toString()) return;
    this.params = next;
    this.onChange(next);
  }
}
