// Leaderboards: each game's best people of a week at the public tables (bots have their own
// board on the Bots page), by chips won per 100 hands with the hands played beside it.

import { h, replace } from "../dom.js";
import { gameFilter } from "../filter.js";
import { errorText } from "./hands.js";

export const route = "/leaderboards";
export const nav = { key: "leaders.nav", order: 17 };

const GAMES = ["3x4", "razz", "teen-patti", "casino-holdem"];
const GAME_KEY = "pokerhouse.leadersGame";
const WEEKS = 8;
const LEAST = [1, 10, 50, 100, 500];

/** The Mondays (UTC, YYYY-MM-DD) of this week and the `count - 1` before it. */
export function mondays(now, count) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  const found = [];
  for (let index = 0; index < count; index += 1) {
    found.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() - 7);
  }
  return found;
}

export function render(el, params, ctx) {
  const { t } = ctx;
  document.title = `${t("leaders.title")} · pokerhouse`;
  let game = sessionStorage.getItem(GAME_KEY) || "3x4";
  if (!GAMES.includes(game)) game = "3x4";
  const weeks = mondays(new Date(), WEEKS);
  let alive = true;
  const board = h("div", { id: "people-board" }, h("p", { class: "hint" }, t("lobby.loading")));
  const week = h("select", { id: "leaders-week", onchange: () => load() },
    weeks.map((monday, index) => h("option", { value: monday },
      index === 0 ? t("leaders.this_week") : t("leaders.week_of", { date: monday }))));
  const least = h("select", { id: "leaders-least", onchange: () => load() },
    LEAST.map((count) => h("option", { value: String(count), selected: count === 50 },
      ctx.formatNumber(count))));
  const filter = gameFilter({
    choices: GAMES,
    current: game,
    label: t("leaders.game"),
    text: (name) => t(`game.${name}`),
    onpick: (name) => {
      game = name;
      sessionStorage.setItem(GAME_KEY, game);
      load();
    },
  });
  replace(el, h("section", { class: "pages leaders", "aria-labelledby": "leaders-title" },
    h("h1", { id: "leaders-title" }, t("leaders.title")),
    h("p", { class: "hint" }, t("leaders.intro")),
    filter,
    h("p", { class: "leaders-choice" },
      h("span", {}, h("label", { for: "leaders-week" }, t("leaders.week")), week),
      h("span", {}, h("label", { for: "leaders-least" }, t("leaders.least")), least)),
    board));

  async function load() {
    replace(board, h("p", { class: "hint" }, t("lobby.loading")));
    const asked = `game=${encodeURIComponent(game)}&week=${encodeURIComponent(week.value)}`
      + `&least=${encodeURIComponent(least.value)}`;
    try {
      const body = await ctx.api.get(`/api/leaderboards/people?${asked}`);
      if (!alive || body.game !== game || body.week !== week.value
        || String(body.least) !== least.value) return;
      replace(board, boardTable(body, ctx));
    } catch (error) {
      if (alive) replace(board, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    }
  }

  load();
  return () => { alive = false; };
}

function boardTable(body, ctx) {
  const { t, formatNumber, formatChips } = ctx;
  if (!body.people.length) return h("p", { class: "hint" }, t("leaders.empty", { count: body.least }));
  const caption = t("leaders.caption", { count: body.least });
  const heads = [t("bots.rank"), t("leaders.player"), t("bots.hands"), t("bots.per_100"), t("leaders.net")];
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("p", { class: "hint" }, caption),
    h("table", { class: "data" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, body.people.map((line, index) => h("tr", { dataset: { player: line.name } },
        h("td", {}, String(index + 1)),
        h("td", {}, h("a", { href: `#/players/${encodeURIComponent(line.name)}` }, line.name)),
        h("td", { class: "num" }, formatNumber(line.hands)),
        h("td", { class: "num" }, formatNumber(line.per_100, { signDisplay: "exceptZero", maximumFractionDigits: 2 })),
        h("td", { class: "num" }, formatChips(line.net, { signed: true })))))));
}
