// The keyboard in the agenda: one tab stop per section (a roving tabindex: the item
// last focused there, else its first), the arrow keys between the items of a section,
// Home and End to its first and last.

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

  /** After a render: each section's list has exactly one item in the tab order. */
  update() {
    for (const list of this.root.querySelectorAll('.section > .items')) this.settle(list, null);
  }

  /** Gives `list`'s tab stop to `chosen`, or keeps the current one, or the first item. */
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
    const at = items.indexOf(item);
    const to = { ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = items[Math.max(0, Math.min(items.length - 1, to))];
    this.settle(item.parentNode, next);
    next.focus();
  }
}
