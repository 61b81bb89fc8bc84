// Bots: the bots' leaderboard of each game (tables for bots only), and a player's own bot
// accounts: make one (its token shown once), give it a new token, or revoke its tokens.

import { h, replace } from "../dom.js";
import { gameFilter } from "../filter.js";
import { errorText, when } from "./hands.js";

export const route = "/bots";
export const nav = { key: "nav.bots", order: 18 };

const GAMES = ["3x4", "razz", "teen-patti", "casino-holdem"];
const GAME_KEY = "pokerhouse.botsGame";

export function render(el, _params, ctx) {
  const { t } = ctx;
  document.title = `${t("bots.title")} · pokerhouse`;
  let game = sessionStorage.getItem(GAME_KEY) || "razz";
  if (!GAMES.includes(game)) game = "razz";
  let alive = true;
  const board = h("div", { id: "bot-board" }, h("p", { class: "hint" }, t("lobby.loading")));
  const filter = gameFilter({
    choices: GAMES,
    current: game,
    label: t("bots.board_game"),
    text: (name) => t(`game.${name}`),
    onpick: (name) => {
      game = name;
      sessionStorage.setItem(GAME_KEY, game);
      loadBoard();
    },
  });
  const mine = h("section", { "aria-labelledby": "my-bots-title" });
  replace(
    el,
    h(
      "section",
      { class: "pages bots", "aria-labelledby": "bots-title" },
      h("h1", { id: "bots-title" }, t("bots.title")),
      h("p", { class: "hint" }, t("bots.intro")),
      h(
        "section",
        { "aria-labelledby": "board-title" },
        h("h2", { id: "board-title" }, t("bots.board")),
        h("p", { class: "hint" }, t("bots.board_hint")),
        filter,
        board,
      ),
      mine,
    ),
  );

  async function loadBoard() {
    replace(board, h("p", { class: "hint" }, t("lobby.loading")));
    try {
      const body = await ctx.api.get(`/api/leaderboards/bots?game=${encodeURIComponent(game)}`);
      if (!alive || body.game !== game) return;
      replace(board, boardTable(body.bots, ctx));
    } catch (error) {
      if (alive) replace(board, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    }
  }

  loadBoard();
  if (ctx.me && !ctx.me.bot) ownBots(mine, ctx, () => alive);
  else if (!ctx.me) {
    replace(mine, h("h2", { id: "my-bots-title" }, t("bots.mine")),
      h("p", {}, h("a", { href: "#/login" }, t("bots.sign_in"))));
  }
  return () => {
    alive = false;
  };
}

function boardTable(lines, ctx) {
  const { t, formatNumber } = ctx;
  if (!lines.length) return h("p", { class: "hint" }, t("bots.board_empty"));
  const caption = t("bots.board");
  const heads = [t("bots.rank"), t("bots.name"), t("bots.hands"), t("bots.per_100"), t("bots.interval")];
  const signed = (value) => (value > 0 ? `+${formatNumber(value)}` : formatNumber(value));
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "data" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, lines.map((line, index) => h("tr", { dataset: { bot: line.name } },
        h("td", {}, String(index + 1)),
        h("td", {}, h("span", { class: "name bot" }, line.name), " ",
          h("span", { class: "badge bot" }, t("table.bot"))),
        h("td", {}, formatNumber(line.hands)),
        h("td", {}, signed(line.per_100)),
        h("td", {}, t("bots.between", { low: signed(line.low), high: signed(line.high) })))))));
}

function ownBots(section, ctx, alive) {
  const { t } = ctx;
  const list = h("div", { id: "my-bots" }, h("p", { class: "hint" }, t("lobby.loading")));
  const status = h("p", { class: "status-line", role: "status" });
  const shown = h("div", { id: "new-token" });
  const name = h("input", {
    id: "bot-name", name: "name", autocomplete: "off", required: true, maxlength: "20",
    pattern: ".*(_|-)[bB][oO][tT][0-9]*", "aria-describedby": "bot-name-hint",
  });
  const form = h(
    "form",
    {
      class: "bot-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const made = await ctx.api.post("/api/bots", { name: name.value.trim() });
          name.value = "";
          status.textContent = t("bots.made", { name: made.name });
          showToken(made.name, made.token);
        } catch (error) {
          status.textContent = errorText(error, t);
        }
        await load();
      },
    },
    h("label", { for: "bot-name" }, t("bots.new_name")),
    name,
    h("p", { class: "hint", id: "bot-name-hint" }, t("bots.name_hint")),
    h("button", { type: "submit" }, t("bots.make")),
  );
  replace(section, h("h2", { id: "my-bots-title" }, t("bots.mine")), status, shown, list, form);

  function showToken(bot, token) {
    const field = h("input", {
      id: "token", readonly: true, value: token, "aria-describedby": "token-hint", spellcheck: "false",
    });
    replace(shown, h("div", { class: "token-box", role: "group", "aria-labelledby": "token-title" },
      h("h3", { id: "token-title" }, t("bots.token_for", { name: bot })),
      h("label", { for: "token", class: "sr-only" }, t("bots.token")),
      field,
      h("p", { class: "hint", id: "token-hint" }, t("bots.token_once"))));
    field.focus();
    field.select();
  }

  async function change(bot, what) {
    try {
      const answer = await ctx.api.post(`/api/bots/${encodeURIComponent(bot)}/${what}`);
      if (what === "token") showToken(bot, answer.token);
      else replace(shown);
      status.textContent = t(`bots.${what === "token" ? "renewed" : "revoked"}`, { name: bot });
    } catch (error) {
      status.textContent = errorText(error, t);
    }
    await load();
  }

  async function load() {
    try {
      const body = await ctx.api.get("/api/bots");
      if (!alive()) return;
      if (!body.bots.length) {
        replace(list, h("p", { class: "hint" }, t("bots.none", { most: body.most })));
        return;
      }
      replace(list, h("ul", { class: "bot-list" }, body.bots.map((bot) => h("li", { dataset: { bot: bot.name } },
        h("span", { class: "name bot" }, bot.name), " ",
        h("span", { class: "hint" }, t("bots.made_on", { when: when(bot.created_at), tokens: bot.live_tokens })),
        " ",
        h("button", { type: "button", class: "secondary", "aria-label": t("bots.renew_for", { name: bot.name }),
          onclick: () => change(bot.name, "token") }, t("bots.renew")),
        " ",
        h("button", { type: "button", class: "secondary", "aria-label": t("bots.revoke_for", { name: bot.name }),
          onclick: () => change(bot.name, "revoke") }, t("bots.revoke"))))));
    } catch (error) {
      if (alive()) replace(list, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    }
  }
  load();
}
