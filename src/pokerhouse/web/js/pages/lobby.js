// The lobby: every table, live from the socket's `lobby` messages, filtered by game.

import { h, replace } from "../dom.js";
import { gameFilter } from "../filter.js";
import { tableName } from "../tablename.js";

export const route = "/";
export const nav = { key: "nav.lobby", order: 10 };

const GAMES = ["3x4", "razz", "teen-patti", "casino-holdem"];
const FILTER_KEY = "pokerhouse.lobbyGame";

export function render(el, _params, ctx) {
  const { t } = ctx;
  let tables = null;
  let game = sessionStorage.getItem(FILTER_KEY) || "all";
  const list = h("div", { class: "tables", id: "tables", "aria-live": "off" });
  const filter = gameFilter({
    choices: ["all", ...GAMES],
    current: game,
    label: t("lobby.filter"),
    text: (name) => (name === "all" ? t("lobby.all_games") : t(`game.${name}`)),
    onpick: (name) => {
      game = name;
      sessionStorage.setItem(FILTER_KEY, game);
      draw();
    },
  });
  replace(
    el,
    h(
      "section",
      { class: "lobby" },
      h(
        "div",
        { class: "lobby-head" },
        h("h1", {}, t("lobby.title")),
        ctx.me ? null : h("p", { class: "hint" }, t("lobby.sign_in_hint")),
      ),
      filter,
      list,
    ),
  );

  function draw() {
    if (tables === null) {
      replace(list, h("p", { class: "hint" }, t("lobby.loading")));
      return;
    }
    const shown = tables.filter((table) => game === "all" || table.game === game);
    if (!shown.length) {
      replace(list, h("p", { class: "hint" }, t("lobby.none")));
      return;
    }
    replace(list, shown.map((table) => tableCard(table, ctx)));
  }

  draw();
  ctx.api
    .get("/api/tables")
    .then((body) => {
      if (tables === null) {
        tables = body.tables;
        draw();
      }
    })
    .catch(() => {});
  const stop = ctx.socket.lobby((fresh) => {
    tables = fresh;
    draw();
  });
  return stop;
}

function stakes(table, t) {
  const spec = table.spec || {};
  if (table.game === "casino-holdem") {
    return t("stakes.casino", { min: spec.min_ante, max: spec.max_ante });
  }
  if (table.game === "razz") {
    return t("stakes.razz", { small: spec.small_bet, big: spec.big_bet, ante: spec.ante });
  }
  if (table.game === "teen-patti") {
    return t("stakes.teen_patti", { ante: spec.ante, limit: t(`limit.${spec.limit || "no-limit"}`) });
  }
  return t("stakes.3x4", {
    ante: spec.ante,
    bet: spec.small_bet,
    limit: t(`limit.${spec.limit || "no-limit"}`),
  });
}

function tableCard(table, ctx) {
  const { t } = ctx;
  const taken = table.seats - table.free;
  const people = table.players.filter((p) => !p.bot).length;
  const mine = ctx.me && table.players.some((p) => p.name === ctx.me.username);
  const name = tableName(table).name;
  return h(
    "article",
    { class: `table-card game-${table.game}`, dataset: { table: table.id } },
    h(
      "header",
      {},
      h("h2", {}, h("a", { href: `#/table/${table.id}` }, name)),
      // The game's tag opens its rules ("How to play Razz").
      h(
        "a",
        {
          class: "game-tag",
          href: `#/rules/${table.game}`,
          title: t("rules.title", { game: t(`game.${table.game}`) }),
          "aria-label": t("rules.title", { game: t(`game.${table.game}`) }),
        },
        t(`game.${table.game}`),
      ),
    ),
    h("p", { class: "stakes" }, stakes(table, t),
      table.bots_only ? [" ", h("span", { class: "badge bot" }, t("lobby.bots_only"))] : null,
      table.people_only ? [" ", h("span", { class: "badge" }, t("lobby.people_only"))] : null),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t("lobby.seats")),
      h("dd", {}, t("lobby.seats_taken", { taken, seats: table.seats })),
      h("dt", {}, t("lobby.players")),
      h("dd", {}, t("lobby.people_bots", { people, bots: taken - people })),
      h("dt", {}, t("lobby.hands_per_hour")),
      h("dd", {}, ctx.formatNumber(table.hands_per_hour)),
      h("dt", {}, t("lobby.buy_in")),
      h("dd", {}, `${ctx.formatChips(table.min_buy_in)}–${ctx.formatChips(table.max_buy_in)}`),
    ),
    h(
      "p",
      { class: "names" },
      table.players.map((p) => h("span", { class: p.bot ? "name bot" : "name" }, p.name)),
    ),
    h(
      "footer",
      {},
      table.available ? null : h("span", { class: "warn" }, t("lobby.unavailable")),
      // A table for bots only is watched: its seats are for bot accounts (docs/bots.md).
      table.bots_only ? h("span", { class: "hint" }, t("lobby.bots_only_hint")) : h(
        "a",
        {
          class: "button",
          // Signed out, Sit goes by the login page and comes back to the table.
          href: ctx.me ? `#/table/${table.id}?sit=1` : "#/login",
          onclick: ctx.me
            ? null
            : () => sessionStorage.setItem("pokerhouse.after_login", `/table/${table.id}?sit=1`),
          "aria-label": t("lobby.sit_at", { name }),
          "aria-disabled": table.free > 0 || mine ? null : "true",
        },
        mine ? t("lobby.back_to_seat") : t("lobby.sit"),
      ),
      h(
        "a",
        {
          class: "button ghost",
          href: `#/table/${table.id}`,
          "aria-label": t("lobby.watch_table", { name }),
        },
        t("lobby.watch"),
      ),
    ),
  );
}
