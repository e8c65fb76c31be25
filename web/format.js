// Words and colours of the page, in the browser's locale: times and date headings with
// Intl.DateTimeFormat (12- or 24-hour as the locale has it), "today" and "tomorrow"
// with Intl.RelativeTimeFormat, and one colour per calendar name.

const locale = undefined; // the browser's
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
const LONG_DATE = new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
const SHORT_DATE = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
const capitalised = (s) => s.charAt(0).toLocaleUpperCase() + s.slice(1);
const language = new Intl.DateTimeFormat().resolvedOptions().locale.split('-')[0];

/** "All day" has no Intl name: the words of a few languages, English otherwise. */
const ALL_DAY = { en: 'All day', de: 'Ganztägig', fr: 'Toute la journée', es: 'Todo el día', it: 'Tutto il giorno',
                  nl: 'Hele dag', pt: 'Dia inteiro', sv: 'Heldag', da: 'Hele dagen', nb: 'Hele dagen', pl: 'Cały dzień',
                  cs: 'Celý den', ja: '終日', zh: '全天', ko: '종일', ru: 'Весь день', uk: 'Весь день' };
const NOTHING = { en: 'Nothing planned', de: 'Nichts geplant', fr: 'Rien de prévu', es: 'Nada previsto' };

/** The page's own words (controls, connection states, announcements): Intl names what it
 *  can (the "time zone" field), this table the rest, English for other languages. */
const UI = {
  en: { agenda: 'Agenda', skip: 'Skip to the agenda', view: 'View', days: 'Days', emptyDays: 'Empty days',
        calendars: 'Calendars', dismiss: 'Dismiss', byDate: 'Agenda by date', connecting: 'Connecting…', live: 'Live',
        reconnecting: 'Reconnecting…', notAnswering: 'Reconnecting… (eventd is not answering)',
        offline: 'Offline — retrying in 5 s', outOfStep: 'Reconnecting… (state out of step: fresh snapshot)',
        unchecked: 'Live (digests unchecked: no WebCrypto)', noCalendars: 'No calendars chosen',
        loaded: (n) => `Agenda loaded: ${n} items`, resync: (why) => `Resynchronising (${why})`,
        updated: (c) => `Agenda updated: ${c.added} added, ${c.removed} removed, ${c.moved} moved, ${c.changed} changed` },
  de: { agenda: 'Termine', skip: 'Zu den Terminen springen', view: 'Ansicht', days: 'Tage', emptyDays: 'Leere Tage',
        calendars: 'Kalender', dismiss: 'Schließen', byDate: 'Termine nach Datum', connecting: 'Verbinde…', live: 'Live',
        reconnecting: 'Verbinde neu…', notAnswering: 'Verbinde neu… (eventd antwortet nicht)',
        offline: 'Offline — neuer Versuch in 5 s', outOfStep: 'Verbinde neu… (Stand abweichend: neuer Schnappschuss)',
        unchecked: 'Live (Prüfsummen ungeprüft: kein WebCrypto)', noCalendars: 'Kein Kalender gewählt',
        loaded: (n) => `Termine geladen: ${n}`, resync: (why) => `Neu abgeglichen (${why})`,
        updated: (c) => `Termine geändert: ${c.added} neu, ${c.removed} entfernt, ${c.moved} verschoben, ${c.changed} geändert` },
  fr: { agenda: 'Agenda', skip: 'Aller à l’agenda', view: 'Affichage', days: 'Jours', emptyDays: 'Jours vides',
        calendars: 'Calendriers', dismiss: 'Fermer', byDate: 'Agenda par date', connecting: 'Connexion…', live: 'En direct',
        reconnecting: 'Reconnexion…', notAnswering: 'Reconnexion… (eventd ne répond pas)',
        offline: 'Hors ligne — nouvel essai dans 5 s', outOfStep: 'Reconnexion… (état décalé : nouvel instantané)',
        unchecked: 'En direct (empreintes non vérifiées : pas de WebCrypto)', noCalendars: 'Aucun calendrier choisi',
        loaded: (n) => `Agenda chargé : ${n} éléments`, resync: (why) => `Resynchronisation (${why})`,
        updated: (c) => `Agenda mis à jour : ${c.added} ajoutés, ${c.removed} retirés, ${c.moved} déplacés, ${c.changed} modifiés` },
  es: { agenda: 'Agenda', skip: 'Ir a la agenda', view: 'Vista', days: 'Días', emptyDays: 'Días vacíos',
        calendars: 'Calendarios', dismiss: 'Cerrar', byDate: 'Agenda por fecha', connecting: 'Conectando…', live: 'En vivo',
        reconnecting: 'Reconectando…', notAnswering: 'Reconectando… (eventd no responde)',
        offline: 'Sin conexión — reintento en 5 s', outOfStep: 'Reconectando… (estado desfasado: instantánea nueva)',
        unchecked: 'En vivo (resúmenes sin comprobar: sin WebCrypto)', noCalendars: 'Ningún calendario elegido',
        loaded: (n) => `Agenda cargada: ${n} elementos`, resync: (why) => `Resincronizando (${why})`,
        updated: (c) => `Agenda actualizada: ${c.added} añadidos, ${c.removed} quitados, ${c.moved} movidos, ${c.changed} cambiados` },
};
const fieldNames = new Intl.DisplayNames(locale, { type: 'dateTimeField' });

export const ui = { ...UI.en, ...(UI[language] ?? {}), timeZone: capitalised(fieldNames.of('timeZoneName')) };

/** Puts the page's words in place: `data-word` names the text, `data-word-label` the
 *  accessible name; `lang` says which language the page is in. */
export function localisePage(root = document) {
  root.documentElement.lang = UI[language] ? language : 'en';
  for (const node of root.querySelectorAll('[data-word]')) node.textContent = ui[node.dataset.word];
  for (const node of root.querySelectorAll('[data-word-label]')) node.setAttribute('aria-label', ui[node.dataset.wordLabel]);
}

export const words = {
  /** "now", "jetzt", "maintenant"... */
  now: relative.format(0, 'second'),
  allDay: ALL_DAY[language] ?? ALL_DAY.en,
  nothingPlanned: NOTHING[language] ?? NOTHING.en,
};


/** A section's heading: "Today · Sunday, November 29", a short one for week columns. */
export function heading(section, kind) {
  const date = new Date(section.date + 'T12:00:00Z');
  const long = LONG_DATE.format(date);
  const offset = { today: 0, tomorrow: 1 }[section.label];
  if (offset !== undefined) return `${capitalised(relative.format(offset, 'day'))} · ${long}`;
  return kind === 'week' ? SHORT_DATE.format(date) : long;
}

/** Times in one zone (one formatter per zone: making one costs far more than using it). */
export class TimeFormat {
  constructor(tz) {
    this.tz = tz;
    // Two-digit hours where the locale counts 24 of them ("01:00", as its ranges write).
    const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
    const hour = cycle === 'h23' || cycle === 'h24' ? '2-digit' : 'numeric';
    this.format = new Intl.DateTimeFormat(locale, { hour, minute: '2-digit', timeZone: tz });
    this.day = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  /** "9:00 – 10:30 AM" (en-US), "09:00–10:30" (de): the locale's own range; times
   *  only also when the item ends the next day (its marks say so). */
  range(start, end) {
    const a = new Date(start), b = new Date(end);
    if (!(b > a)) return this.format.format(a);
    if (b - a < 86_400_000 && this.day.format(a) !== this.day.format(b)) return `${this.format.format(a)} – ${this.format.format(b)}`;
    return this.format.formatRange(a, b);
  }

  time(date) { return this.format.format(date); }
}

/** A hue (0–359) of a calendar's name, the same for the same name on every page:
 *  FNV-1a over its UTF-16 units, then mixed (murmur3's finaliser) so that names that
 *  differ by a letter land far apart. */
export function calendarHue(name) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
  return (h >>> 0) % 360;
}
