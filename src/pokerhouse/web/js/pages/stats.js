// My stats: the signed-in player's figures by game (VPIP, PFR, aggression, showdowns, won
// per 100 hands...) over a period; the same drawing serves any player's page (player.js).

import { h, replace } from "../dom.js";
import { gameFilter } from "../filter.js";
import { errorText } from "./hands.js";

export const route = "/stats";
export const nav = { key: "stats.nav", order: 32, signedIn: true };

const PERIODS = ["week", "month", "year", "all"];
const PERIOD_KEY = "pokerhouse.statsPeriod";

export function render(el, _params, ctx) {
  const { t } = ctx;
  document.title = `${t("stats.title")} · pokerhouse`;
  if (!ctx.me) {
    replace(el, h("section", { class: "pages" }, h("h1", {}, t("stats.title")),
      h("p", {}, h("a", { href: "#/login" }, t("error.login_required")))));
    return undefined;
  }
  return statsPage(el, t("stats.title"), "/api/me/stats", ctx);
}

/** A stats page titled `title`, read from `path` (`?period=` added); its cleanup. */
export function statsPage(el, title, path, ctx) {
  const { t } = ctx;
  let period = sessionStorage.getItem(PERIOD_KEY) || "all";
  if (!PERIODS.includes(period)) period = "all";
  let alive = true;
  const body = h("div", { id: "stats-body" }, h("p", { class: "hint" }, t("lobby.loading")));
  const filter = gameFilter({
    choices: PERIODS,
    current: period,
    label: t("stats.period"),
    text: (name) => t(`stats.period.${name}`),
    onpick: (name) => {
      period = name;
      sessionStorage.setItem(PERIOD_KEY, period);
      load();
    },
  });
  replace(el, h("section", { class: "pages stats", "aria-labelledby": "stats-title" },
    h("h1", { id: "stats-title" }, title),
    h("p", { class: "hint" }, t("stats.intro")),
    filter, body));

  async function load() {
    replace(body, h("p", { class: "hint" }, t("lobby.loading")));
    try {
      const page = await ctx.api.get(`${path}?period=${encodeURIComponent(period)}`);
      if (!alive || page.period !== period) return;
      replace(body, page.games.length ? statsTable(page.games, ctx)
        : h("p", { class: "hint" }, t("stats.none")));
    } catch (error) {
      if (alive) replace(body, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    }
  }

  load();
  return () => { alive = false; };
}

// One row a figure, one column a game: the figures a game lacks show a dash.
const ROWS = [
  ["hands", "count"], ["net", "chips"], ["per_100", "signed"], ["vpip", "percent"],
  ["pfr", "percent"], ["aggression", "ratio"], ["went_to_showdown", "percent"],
  ["won_at_showdown", "percent"], ["blind", "percent"], ["seen", "percent"],
  ["call_rate", "percent"],
];

function statsTable(games, ctx) {
  const { t, formatNumber, formatChips } = ctx;
  const shown = (value, kind) => {
    if (value === null || value === undefined) return "–";
    if (kind === "percent") return `${formatNumber(value, { maximumFractionDigits: 1 })}%`;
    if (kind === "chips") return formatChips(value, { signed: true });
    if (kind === "signed") return formatNumber(value, { signDisplay: "exceptZero", maximumFractionDigits: 2 });
    return formatNumber(value, { maximumFractionDigits: 2 });
  };
  const rows = ROWS.filter(([name]) => games.some((game) => game[name] !== undefined && game[name] !== null));
  const caption = t("stats.by_game");
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "data", id: "stats-table" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("stats.figure")),
        games.map((game) => h("th", { scope: "col", dataset: { game: game.game } }, t(`game.${game.game}`))))),
      h("tbody", {}, rows.map(([name, kind]) => h("tr", { dataset: { figure: name } },
        h("th", { scope: "row" }, h("abbr", { title: t(`stats.explain.${name}`) }, t(`stats.${name}`))),
        games.map((game) => h("td", { class: "num" }, shown(game[name], kind))))))));
}
