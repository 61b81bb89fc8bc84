// One tournament: the clock to the next level, register or unregister, the prizes, chip
// counts and places, the tables to watch, the structure, and what just happened, live
// from the socket's `tournament` messages. A player seated or moved by the tournament
// is taken to their table.

import { h, replace } from "../dom.js";
import { errorText } from "./hands.js";
import { levelStakes, progress } from "./tournaments.js";

export const route = "/tournament/:id";

const NEWS_KEPT = 30;

export function render(el, params, ctx) {
  const { t } = ctx;
  const id = Number(params.id);
  let page = null;
  let shownAt = 0;
  const news = [];
  const body = h("div", { class: "tournament" }, h("p", { class: "hint" }, t("lobby.loading")));
  const status = h("p", { class: "status-line", role: "status" });
  replace(el, h("section", { class: "pages", "aria-labelledby": "tournament-title" }, body));
  let alive = true;

  async function load() {
    try {
      page = await ctx.api.get(`/api/tournaments/${id}`);
      shownAt = performance.now();
      if (alive) draw();
    } catch (error) {
      if (alive) replace(body, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    }
  }

  async function ask(what) {
    try {
      page = await ctx.api.post(`/api/tournaments/${id}/${what}`);
      shownAt = performance.now();
      status.textContent = t(`tournaments.${what}ed`, { name: page.name });
      await ctx.refreshMe();
    } catch (error) {
      status.textContent = errorText(error, t);
    }
    draw();
  }

  function draw() {
    if (!page) return;
    document.title = `${page.name} · pokerhouse`;
    replace(
      body,
      h("h1", { id: "tournament-title" }, page.name),
      h(
        "p",
        { class: "stakes" },
        t(`game.${page.game}`), " · ", t(`tournaments.format.${page.format}`), " · ",
        progress(page, ctx),
      ),
      status,
      actions(),
      clock(),
      h("h2", {}, t("tournaments.prizes")),
      prizes(),
      h("h2", {}, t("tournaments.standings")),
      standings(),
      page.tables_open.length ? h("h2", {}, t("tournaments.tables")) : null,
      page.tables_open.length ? tables() : null,
      h("h2", {}, t("tournaments.news")),
      newsList(),
      h("h2", {}, t("tournaments.structure")),
      structure(),
    );
  }

  function mine() {
    return ctx.me ? page.standings.filter((s) => s.player === ctx.me.username) : [];
  }

  function actions() {
    if (!ctx.me) return h("p", { class: "hint" }, h("a", { href: "#/login" }, t("tournaments.sign_in_hint")));
    const entered = mine().some((s) => !s.busted);
    const buttons = [];
    if (page.registering && !entered) {
      buttons.push(h("button", { type: "button", class: "button", onclick: () => ask("register") },
        t("tournaments.register_cost", { cost: ctx.formatChips(page.buy_in + page.fee) })));
    }
    if (page.status === "registering" && entered) {
      buttons.push(h("button", { type: "button", class: "button ghost", onclick: () => ask("unregister") },
        t("tournaments.unregister")));
    }
    return buttons.length ? h("p", { class: "actions" }, buttons) : null;
  }

  function clock() {
    const items = [
      h("dt", {}, t("tournaments.level_now")),
      h("dd", {}, `${page.level} · ${levelStakes(page.game, page.stakes, t)}`),
      h("dt", {}, t("tournaments.next_level")),
      h("dd", {}, levelStakes(page.game, page.next_stakes, t)),
    ];
    if (page.seconds_left !== null) {
      items.push(h("dt", {}, page.on_break ? t("tournaments.break_left") : t("tournaments.time_left")),
        h("dd", { class: "countdown" }, countdown()));
    }
    items.push(h("dt", {}, t("tournaments.average_stack")), h("dd", {}, ctx.formatChips(page.average_stack)),
      h("dt", {}, t("tournaments.left")), h("dd", {}, `${page.left} / ${page.entrants}`));
    if (page.hand_for_hand) items.push(h("dt", {}, t("tournaments.bubble")), h("dd", {}, t("tournaments.hand_for_hand")));
    return h("dl", { class: "facts" }, items);
  }

  function countdown() {
    const left = Math.max(0, page.seconds_left - (performance.now() - shownAt) / 1000);
    const minutes = Math.floor(left / 60);
    const seconds = String(Math.floor(left % 60)).padStart(2, "0");
    return `${minutes}:${seconds}`;
  }

  function prizes() {
    if (!page.prizes.length) return h("p", { class: "hint" }, t("tournaments.no_prizes"));
    return dataTable(t("tournaments.prizes"), [t("tournaments.place"), t("tournaments.prize")],
      page.prizes.map((prize, index) => [String(index + 1), ctx.formatChips(prize)]));
  }

  function standings() {
    const rows = page.standings.map((s) => {
      const table = page.tables_open.find((open) => open.number === s.table);
      const where = table && table.table_id
        ? h("a", { href: `#/table/${table.table_id}` }, t("tournaments.table_n", { number: s.table }))
        : "–";
      const place = s.place === null ? "–" : s.tied > 1 ? t("tournaments.tied", { place: s.place, tied: s.tied }) : String(s.place);
      const who = s.bot ? [s.player, " ", h("span", { class: "badge bot" }, t("table.bot"))] : s.player;
      return [who, s.busted ? "–" : ctx.formatChips(s.chips), where, place, s.prize ? ctx.formatChips(s.prize) : "–"];
    });
    if (!rows.length) return h("p", { class: "hint" }, t("tournaments.no_entrants"));
    return dataTable(t("tournaments.standings"),
      [t("tournaments.player"), t("tournaments.chips"), t("tournaments.table"), t("tournaments.place"), t("tournaments.prize")], rows);
  }

  function tables() {
    return h("ul", { class: "links" }, page.tables_open.map((table) =>
      h("li", {}, h("a", { href: `#/table/${table.table_id}` },
        t("tournaments.table_players", { number: table.number, players: table.players })))));
  }

  function structure() {
    const s = page.structure;
    const length = s.level_seconds !== null
      ? t("tournaments.minutes", { minutes: Math.round(s.level_seconds / 60) })
      : t("tournaments.hands", { hands: s.level_hands });
    return h("div", {},
      h("p", {}, t("tournaments.structure_line", { stack: ctx.formatChips(s.starting_stack), length })),
      dataTable(t("tournaments.structure"), [t("tournaments.level_col"), t("tournaments.stakes")],
        s.levels.map((stakes, index) => [String(index + 1), levelStakes(page.game, stakes, t)])));
  }

  function newsList() {
    if (!news.length) return h("p", { class: "hint" }, t("tournaments.no_news"));
    return h("ol", { class: "news", "aria-live": "polite" }, news.map((item) => h("li", {}, item)));
  }

  function told(item) {
    const args = { ...item, stakes: item.stakes ? levelStakes(page ? page.game : "", item.stakes, t) : "" };
    return t(`tournaments.news.${item.kind}${item.kind === "hand_for_hand" && !item.on ? "_off" : ""}`, args);
  }

  load();
  const stop = ctx.socket.tournament(id, (message) => {
    if (!page) return;
    Object.assign(page, message.line);
    shownAt = performance.now();
    for (const item of message.news) {
      news.unshift(told(item));
      const me = ctx.me && item.player === ctx.me.username;
      if (me && (item.kind === "moved" || item.kind === "seated") && item.table_id) {
        ctx.announce(told(item));
        ctx.navigate(`/table/${item.table_id}`);
        return;
      }
    }
    news.splice(NEWS_KEPT);
    if (message.news.length) load();
    else draw();
  });
  const ticker = setInterval(() => {
    const shown = el.querySelector(".countdown");
    if (shown && page) shown.textContent = countdown();
  }, 1000);
  return () => {
    alive = false;
    stop();
    clearInterval(ticker);
  };
}

function dataTable(caption, heads, rows) {
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "data" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, rows.map((row) => h("tr", {}, row.map((cell) => h("td", {}, cell)))))));
}
