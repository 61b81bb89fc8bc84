// My hands: every hand I was dealt in, newest first, paged (older hands on demand),
// with a link to replay each.

import { h, replace } from "../dom.js";
import { has } from "../i18n.js";
import { olderList } from "../older.js";
import { tableName } from "../tablename.js";

export const route = "/hands";
export const nav = { key: "hands.nav", order: 30, signedIn: true };

const PAGE_SIZE = 20;

export function render(el, params, ctx) {
  const { t } = ctx;
  document.title = `${t("hands.title")} · pokerhouse`;
  if (!ctx.me) {
    replace(el, h("section", { class: "pages" }, h("h1", {}, t("hands.title")),
      h("p", {}, h("a", { href: "#/login" }, t("error.login_required")))));
    return undefined;
  }
  const body = h("div", { class: "hands-list" }, h("p", { class: "hint" }, t("hands.loading")));
  replace(el, h("section", { class: "pages", "aria-labelledby": "hands-title" },
    h("h1", { id: "hands-title" }, t("hands.title")), body));
  let alive = true;
  Promise.all([ctx.api.get("/api/me/hands"), ctx.api.get("/api/tables").catch(() => ({ tables: [] }))])
    .then(([mine, lobby]) => {
      if (!alive) return;
      const names = new Map(lobby.tables.map((table) => [table.id, tableName(table).name]));
      const hands = mine.hands;
      if (!hands.length) {
        replace(body, h("p", {}, t("hands.none"), " ", h("a", { href: "#/" }, t("rules.to_lobby"))));
        return;
      }
      const page = Number(params.query.get("page") || "1");
      replace(body, olderList({
        items: hands, next: mine.next, size: PAGE_SIZE, page, t,
        label: t("hands.pages"),
        more: t("hands.show_older"),
        shown: (count, total) => t("hands.older_shown", { count, total }),
        failed: (error) => errorText(error, t),
        onpage: (n) => ctx.navigate(`/hands?page=${n}`),
        draw: (slice) => handsTable(slice, names, ctx),
        fetchOlder: async (before) => {
          const older = await ctx.api.get(`/api/me/hands?before=${encodeURIComponent(before)}`);
          return { items: older.hands, next: older.next };
        },
      }));
    })
    .catch((error) => {
      if (alive) replace(body, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    });
  return () => { alive = false; };
}

function handsTable(hands, names, ctx) {
  const { t, formatChips } = ctx;
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("hands.title") },
    h("table", { class: "data" },
    h("caption", { class: "sr-only" }, t("hands.title")),
    h("thead", {}, h("tr", {},
      ["hands.when", "hands.game", "hands.table", "hands.number", "hands.result", "hands.open"].map((key) =>
        h("th", { scope: "col" }, t(key))))),
    h("tbody", {}, hands.map((hand) => {
      const result = hand.result === null || hand.result === undefined
        ? t(`hands.status.${hand.status}`)
        : formatChips(hand.result, { signed: true });
      // A hand still in play has no replay yet: it links to its table instead.
      const open = hand.status === "voided"
        ? t("hands.status.voided")
        : hand.status === "running"
          ? h("a", { href: `#/table/${hand.table_id}`, class: "in-play", "aria-label": t("hands.to_table_of", { number: hand.number }) },
            t("hands.to_table"))
          : h("a", { href: `#/hands/${hand.id}?n=${hand.number}`, "aria-label": t("hands.replay_hand", { number: hand.number }) },
            t("hands.replay"));
      return h("tr", { dataset: { hand: String(hand.id) } },
        h("td", {}, when(hand.started_at)),
        h("td", {}, t(`game.${hand.game}`)),
        h("td", {}, names.get(hand.table_id) || t("hands.table_n", { id: hand.table_id })),
        h("td", { class: "num" }, `#${hand.number}`),
        h("td", { class: `num ${hand.result > 0 ? "won" : hand.result < 0 ? "lost" : ""}` }, result),
        h("td", {}, open));
    }))));
}

/** A time in the reader's locale (seconds since the epoch). */
export function when(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang || undefined, {
    dateStyle: "short", timeStyle: "short",
  });
}

/** An API error in words: the catalogue's text for its code, else a general one. */
export function errorText(error, t) {
  const code = error && error.code;
  for (const key of [`hands.error.${code}`, `error.${code}`]) if (has(key)) return t(key);
  return t("error.unknown");
}
