// One tab stop per section (roving tabindex); arrows go to the nearest item drawn that way.

const DIRECTIONS = { ArrowDown: [0, 1], ArrowUp: [0, -1], ArrowRight: [1, 0], ArrowLeft: [-1, 0] };
const focusable = (list) => [...list.children].filter((n) => n.classList.contains('item') && n.dataset.id);

export class RovingFocus {
  constructor(root) {
    this.root = root;
    root.addEventListener('keydown', (event) => this.key(event));
    root.addEventListener('focusin', (event) => {
      const item = event.target.closest?.('.item');
      if (item && item.parentNode) this.settle(item.parentNode, item);
    });
  }

  /** After a render: one item of each section's list in the tab order. */
  update() {
    for (const list of this.root.querySelectorAll('.section > .items')) this.settle(list, null);
  }

  /** Gives `list`'s tab stop to `chosen`, else keeps it, else to the first item. */
  settle(list, chosen) {
    const items = focusable(list);
    const stop = chosen ?? items.find((n) => n.tabIndex === 0) ?? items[0];
    for (const n of items) {
      const want = n === stop ? 0 : -1;
      if (n.tabIndex !== want) n.tabIndex = want;
    }
  }

  key(event) {
    const item = event.target.closest?.('.item');
    if (!item || !item.parentNode || event.altKey || event.ctrlKey || event.metaKey) return;
    const items = focusable(item.parentNode);
    const next = { Home: items[0], End: items.at(-1) }[event.key] ?? this.toward(item, DIRECTIONS[event.key]);
    if (next === undefined) return;
    event.preventDefault();
    if (!next) return;
    this.settle(next.parentNode, next);
    next.focus();
  }

  /** The item drawn nearest `item` in direction [dx, dy], in any section. */
  toward(item, direction) {
    if (!direction) return undefined;
    const [dx, dy] = direction, r = item.getBoundingClientRect();
    let best = null, score = Infinity;
    for (const n of this.root.querySelectorAll('.section > .items > .item[data-id]')) {
      const q = n.getBoundingClientRect();
      if (n === item || !q.width) continue;
      // How far ahead its near edge is, how far aside (0: overlapping).
      const ahead = dx ? (dx > 0 ? q.left - r.right : r.left - q.right) : (dy > 0 ? q.top - r.bottom : r.top - q.bottom);
      const aside = dx ? Math.max(0, q.top - r.bottom, r.top - q.bottom) : Math.max(0, q.left - r.right, r.left - q.right);
      const centre = dx ? Math.abs(q.top - r.top) : Math.abs(q.left - r.left);
      const s = ahead + 3 * aside + centre / 100;
      if (ahead > -2 && s < score) { score = s; best = n; }
    }
    return best;
  }
}
