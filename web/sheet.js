// An item's detail sheet (a modal dialog). Links only for http(s) and mailto.
import { el, ui } from './format.js';

const sheet = document.getElementById('sheet');
let opener = null;
sheet.addEventListener('close', () => opener?.isConnected && opener.focus());
sheet.addEventListener('click', (event) => { if (event.target === sheet || event.target.closest('.close')) sheet.close(); });

/** `text` with http(s) and mailto addresses as links. */
export function linked(text) {
  const out = document.createDocumentFragment();
  for (const part of text.split(/((?:https?:\/\/|mailto:)[^\s<>"]+)/i)) {
    let url = null;
    try { url = new URL(part); } catch { /* plain text */ }
    if (url && /^(https?|mailto):$/.test(url.protocol)) {
      out.append(Object.assign(el('a'), { href: url.href, textContent: part, rel: 'noopener noreferrer', target: '_blank' }));
    } else if (part) out.append(part);
  }
  return out;
}

/** Opens the sheet of `item` (drawn by `node`); `when` says its time in `zone`. */
export function openSheet(item, node, when, zone) {
  opener = node;
  sheet.querySelector('h2').replaceChildren(linked(item.summary || ui.noTitle));
  const rows = [[ui.when, `${when} (${zone})`], [ui.where, item.location], [ui.about, item.description],
                [ui.link, item.url], [ui.calendar, item.calendar], [ui.status, item.status && ui[item.status]]];
  const list = sheet.querySelector('dl');
  list.replaceChildren();
  for (const [term, value] of rows) {
    if (!value) continue;
    const dd = el('dd');
    dd.append(linked(value));
    list.append(el('dt', null, term), dd);
  }
  sheet.showModal();
  sheet.querySelector('.close').focus();
}
