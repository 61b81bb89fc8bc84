// The lobby's Tournaments tab: sit-and-gos and scheduled tournaments, open, running and
// ended, each with its buy-in, entrants, level and prizes; register from the card.

import { h, replace } from "../dom.js";
import { errorText } from "./hands.js";

export const route = "/tournaments";
export const nav = { key: "nav.tournaments", order: 15 };

const REFRESH_MS = 5000;

export function render(el, _params, ctx) {
  const { t } = ctx;
  document.title = `${t("tournaments.title")} · pokerhouse`;
  const list = h("div", { class: "tables", id: "tournaments" }, h("p", { class: "hint" }, t("lobby.loading")));
  const status = h("p", { class: "status-line", role: "status" });
  replace(
    el,
    h(
      "section",
      { class: "lobby", "aria-labelledby": "tournaments-title" },
      h(
        "div",
        { class: "lobby-head" },
        h("h1", { id: "tournaments-title" }, t("tournaments.title")),
        ctx.me ? null : h("p", { class: "hint" }, t("tournaments.sign_in_hint")),
      ),
      status,
      list,
    ),
  );
  let alive = true;
  async function load() {
    try {
      const body = await ctx.api.get("/api/tournaments");
      if (!alive) return;
      const shown = body.tournaments;
      if (!shown.length) replace(list, h("p", { class: "hint" }, t("tournaments.none")));
      else replace(list, shown.map((line) => tournamentCard(line, ctx, ask)));
    } catch (error) {
      if (alive) replace(list, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    }
  }
  async function ask(line, what) {
    try {
      await ctx.api.post(`/api/tournaments/${line.id}/${what}`);
      status.textContent = t(`tournaments.${what}ed`, { name: line.name });
      await ctx.refreshMe();
    } catch (error) {
      status.textContent = errorText(error, t);
    }
    await load();
  }
  load();
  const timer = setInterval(load, REFRESH_MS);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

/** A level's stakes in words, as the game names them. */
export function levelStakes(game, stakes, t) {
  if (game === "razz") {
    return t("stakes.razz", { small: stakes.small_bet, big: stakes.big_bet, ante: stakes.ante });
  }
  if (game === "teen-patti") return t("tournaments.boot", { ante: stakes.ante });
  return t("tournaments.stakes_3x4", { ante: stakes.ante, bet: stakes.small_bet });
}

/** When and how far: registering (with its start), the level, or how it ended. */
export function progress(line, ctx) {
  const { t } = ctx;
  if (line.status === "registering") {
    return line.format === "sit-and-go"
      ? t("tournaments.starts_when_full", { left: line.seats - line.entrants })
      : t("tournaments.registering");
  }
  if (line.status === "running") {
    const level = t("tournaments.level", { level: line.level });
    return line.on_break ? `${level} · ${t("tournaments.on_break")}` : level;
  }
  return t(`tournaments.status.${line.status}`);
}

function tournamentCard(line, ctx, ask) {
  const { t, formatChips } = ctx;
  const entrants =
    line.max_entrants === null
      ? formatChips(line.entrants)
      : t("tournaments.entrants_of", { count: line.entrants, most: line.max_entrants });
  const first = line.prizes.length ? formatChips(line.prizes[0]) : "–";
  return h(
    "article",
    { class: `table-card game-${line.game}`, dataset: { tournament: line.id } },
    h(
      "header",
      {},
      h("h2", {}, h("a", { href: `#/tournament/${line.id}` }, line.name)),
      h("span", { class: "game-tag" }, t(`game.${line.game}`)),
    ),
    h("p", { class: "stakes" }, t(`tournaments.format.${line.format}`), " · ", progress(line, ctx)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t("tournaments.buy_in")),
      h("dd", {}, `${formatChips(line.buy_in)} + ${formatChips(line.fee)}`),
      h("dt", {}, t("tournaments.entrants")),
      h("dd", {}, entrants),
      h("dt", {}, t("tournaments.first_prize")),
      h("dd", {}, first),
      h("dt", {}, t("tournaments.stakes")),
      h("dd", {}, levelStakes(line.game, line.stakes, t)),
    ),
    h(
      "footer",
      {},
      line.registering && ctx.me
        ? h(
            "button",
            {
              type: "button",
              class: "button",
              onclick: () => ask(line, "register"),
              "aria-label": t("tournaments.register_for", { name: line.name }),
            },
            t("tournaments.register"),
          )
        : null,
      h(
        "a",
        {
          class: "button ghost",
          href: `#/tournament/${line.id}`,
          "aria-label": t("tournaments.open_named", { name: line.name }),
        },
        t("tournaments.open"),
      ),
    ),
  );
}
