// A list that grows backwards: the newest page from the server, shown with the
// pager, and a "Show older" button under it while the server's answer has a
// `next` (keyset paging: `next` is sent back as `?before=`).

import { h, replace } from "./dom.js";
import { pager } from "./pager.js";

/**
 * `items` newest first and the server's `next` (null: nothing older).
 * `fetchOlder(next)` resolves to `{ items, next }` for the page before;
 * `shown(count, total)` says in words what a click added; `onchange(items)`
 * hears of every growth. Until something older is loaded the pager moves
 * with `onpage(n)` (the page in the address); after, it turns pages in place,
 * since a new visit would load the newest page alone.
 */
export function olderList({ items, next, size, page, label, more, shown, draw, onpage, fetchOlder, onchange, failed, t }) {
  const el = h("div", { class: "older-list" });
  const status = h("p", { class: "hint older-status", role: "status" });
  let all = items;
  let cursor = next;
  let current = page;
  let grown = false;

  function render() {
    const button = cursor === null || cursor === undefined
      ? null
      : h("button", { type: "button", class: "secondary show-older", onclick: load }, more);
    replace(el, pager({
      items: all, size, page: current, t, label, draw,
      onpage: (n) => {
        if (!grown) {
          onpage(n);
          return;
        }
        const forward = n > current;
        current = n;
        render();
        // The same pager button keeps the focus, or the list when that end is reached.
        const buttons = el.querySelectorAll(".pager button");
        const same = buttons[forward ? buttons.length - 1 : 0];
        (same && !same.disabled ? same : el.querySelector(".table-scroll"))?.focus();
      },
    }), h("div", { class: "older" }, button, status));
  }

  async function load(event) {
    const button = event.currentTarget;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    button.textContent = t("hands.pager.loading");
    try {
      const older = await fetchOlder(cursor);
      const before = all.length;
      all = all.concat(older.items);
      cursor = older.next;
      grown = true;
      // To the page where the older ones begin.
      current = Math.floor(before / size) + 1;
      status.textContent = shown(older.items.length, all.length);
      render();
      if (onchange) onchange(all);
      // Keyboard users keep their place: the next "Show older", else the list itself.
      (el.querySelector("button.show-older") || el.querySelector(".table-scroll"))?.focus();
    } catch (error) {
      status.textContent = failed(error);
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.textContent = more;
    }
  }

  render();
  return el;
}
