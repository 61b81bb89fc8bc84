// A list shown a page at a time, with "previous", "next" and "page n of m".

import { h } from "./dom.js";

/**
 * `items` cut into pages of `size`; `draw(slice)` draws one page; `onpage(n)`
 * is called to move (the page number is then passed back in as `page`).
 */
export function pager({ items, size, page, draw, onpage, label, t }) {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Number.isFinite(page) ? page : 1), pages);
  const slice = items.slice((current - 1) * size, current * size);
  const nav = pages > 1
    ? h("nav", { class: "pager", "aria-label": label },
      h("button", { type: "button", disabled: current === 1, onclick: () => onpage(current - 1) }, t("hands.pager.previous")),
      h("span", { "aria-current": "page" }, t("hands.pager.page", { page: current, pages })),
      h("button", { type: "button", disabled: current === pages, onclick: () => onpage(current + 1) }, t("hands.pager.next")))
    : null;
  return h("div", { class: "paged" }, draw(slice), nav);
}
