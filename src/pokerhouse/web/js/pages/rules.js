// How to play: one page per game, written from the room's rule book (RULES.md),
// with the hand rankings drawn in cards. The words live in the catalogues
// (rules.*); this module only says which sections and which example hands a
// game's page has. A section's text is paragraphs split by a blank line; a
// paragraph whose lines all start with "- " is a list.

import { h, replace } from "../dom.js";
import { cardRow } from "../cards.js";

export const route = "/rules/:game";
export const nav = { key: "rules.nav", order: 40, path: "/rules/3x4" };

/** The game ids the server uses in `GET /api/tables`, in the lobby's order. */
export const GAMES = ["3x4", "razz", "teen-patti", "casino-holdem"];


// Example hands, best first. Each is [catalogue key under rules.hand., cards].
const HIGH = [
  ["straight_flush", "9h 8h 7h 6h 5h"],
  ["four_of_a_kind", "Qs Qh Qd Qc 7s"],
  ["full_house", "Js Jh Jd 4c 4s"],
  ["flush", "Ad Jd 8d 6d 2d"],
  ["straight", "5c 4d 3h 2s Ac"],
  ["three_of_a_kind", "7c 7d 7h Ks 2d"],
  ["two_pair", "Kc Kd 7h 7s 3c"],
  ["pair", "Ah Ad 9c 6s 4h"],
  ["high_card", "Ac Qd 9h 6s 3c"],
];

const CASINO = [["royal_flush", "As Ks Qs Js Ts"], ...HIGH];

const LOW = [
  ["wheel", "5h 4c 3d 2s Ac"],
  ["six_low", "6d 4s 3h 2c Ah"],
  ["flush_low", "7h 5h 4h 3h 2h"],
  ["eight_low", "8c 6d 5h 4s 3c"],
  ["eight_low_worse", "8h 7d 3c 2s Ad"],
  ["king_low", "Kd Qc Js Th 9c"],
  ["aces", "Ac As 4d 3h 2c"],
  ["kings", "Kc Ks 4h 3d 2s"],
];

const TEEN_PATTI = [
  ["trail", "Ac Ad Ah"],
  ["pure_sequence", "Ah 2h 3h"],
  ["pure_sequence_akq", "As Ks Qs"],
  ["sequence", "Ac 2d 3h"],
  ["colour", "Ad Kd Jd"],
  ["tp_pair", "Ah Ac 2d"],
  ["tp_high_card", "Ac Kd Jh"],
  ["not_sequence", "Kh Ac 2d"],
];

const PAGES = {
  "3x4": {
    sections: ["overview", "deal", "betting", "showdown", "differs"],
    rankingAfter: "overview",
    ranking: HIGH,
  },
  razz: {
    sections: ["overview", "hand", "streets", "bets", "edges", "showdown", "differs"],
    rankingAfter: "hand",
    ranking: LOW,
  },
  "teen-patti": {
    sections: ["overview", "blind_seen", "show", "end", "sideshow", "differs"],
    rankingAfter: "overview",
    ranking: TEEN_PATTI,
  },
  "casino-holdem": {
    sections: ["overview", "round", "qualify", "bonus", "numbers", "differs"],
    rankingAfter: "overview",
    payTablesAfter: "bonus",
    ranking: CASINO,
    payTables: [
      {
        key: "ante_table",
        rows: [
          ["royal_flush", "100:1"],
          ["straight_flush", "20:1"],
          ["four_of_a_kind", "10:1"],
          ["full_house", "3:1"],
          ["flush", "2:1"],
          ["straight_or_lower", "1:1"],
        ],
      },
      { key: "bonus_table", rows: [["aces_or_better", "7:1"]] },
      {
        key: "bonus_common_table",
        rows: [
          ["royal_flush", "100:1"],
          ["straight_flush", "50:1"],
          ["four_of_a_kind", "40:1"],
          ["full_house", "30:1"],
          ["flush", "20:1"],
          ["straight_to_aces", "7:1"],
        ],
      },
    ],
  },
};

export function render(el, params, ctx) {
  const { t } = ctx;
  const game = params.game;
  const page = PAGES[game];
  if (!page) {
    replace(
      el,
      h(
        "section",
        { class: "pages rules" },
        h("h1", {}, t("rules.unknown_game")),
        gameLinks(t, null),
      ),
    );
    return undefined;
  }
  const title = t(`game.${game}`);
  document.title = `${t("rules.title", { game: title })} · pokerhouse`;
  replace(
    el,
    h(
      "article",
      { class: "pages rules", "aria-labelledby": "rules-title", dataset: { game } },
      h("h1", { id: "rules-title" }, t("rules.title", { game: title })),
      gameLinks(t, game),
      h("p", { class: "lead" }, t(`rules.${game}.lead`)),
      // The ranking comes right after the section that says what a hand is.
      page.sections.map((name) => [
        section(t, `rules.${game}.${name}`),
        name === page.rankingAfter ? ranking(t, game, page.ranking) : null,
        name === page.payTablesAfter ? page.payTables.map((table) => payTable(t, table)) : null,
      ]),
      section(t, "rules.common"),
      h("p", {}, h("a", { href: "#/" }, t("rules.to_lobby"))),
    ),
  );
  return undefined;
}

/** The four games as links, the current one marked. */
function gameLinks(t, current) {
  return h(
    "nav",
    { class: "game-tabs", "aria-label": t("rules.other_games") },
    GAMES.map((game) =>
      h(
        "a",
        { href: `#/rules/${game}`, "aria-current": game === current ? "page" : null },
        t(`game.${game}`),
      ),
    ),
  );
}

/** A heading and its text (paragraphs and lists) from `prefix.title` and `prefix.text`. */
function section(t, prefix) {
  const id = prefix.replace(/[^a-z0-9]+/gi, "-");
  return h(
    "section",
    { "aria-labelledby": id },
    h("h2", { id }, t(`${prefix}.title`)),
    blocks(t(`${prefix}.text`)),
  );
}

/** Paragraphs split by blank lines; a block of "- " lines is a list. */
export function blocks(text) {
  return text.split(/\n\s*\n/).map((block) => {
    const lines = block.split("\n").map((line) => line.trim()).filter(Boolean);
    if (lines.length && lines.every((line) => line.startsWith("- "))) {
      return h("ul", {}, lines.map((line) => h("li", {}, line.slice(2))));
    }
    return h("p", {}, lines.join(" "));
  });
}

/** The hand ranking, best first, each hand drawn in cards and named. */
function ranking(t, game, hands) {
  const id = `ranking-${game}`;
  return h(
    "section",
    { class: "ranking", "aria-labelledby": id },
    h("h2", { id }, t("rules.ranking_title")),
    h("p", {}, t(`rules.${game}.ranking_intro`)),
    h(
      "ol",
      { class: "hands" },
      hands.map(([key, cards]) => {
        const row = cardRow(cards.split(" "));
        // Each card keeps its own name ("ace of spades"); the row is named after the hand.
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", t(`rules.hand.${key}.name`));
        return h(
          "li",
          { dataset: { hand: key } },
          h(
            "div",
            { class: "hand-text" },
            h("strong", { class: "hand-name" }, t(`rules.hand.${key}.name`)),
            h("span", { class: "hand-note" }, t(`rules.hand.${key}.note`)),
          ),
          row,
        );
      }),
    ),
  );
}

/** A pay table: hand and odds, as a real table for screen readers. */
function payTable(t, table) {
  const caption = t(`rules.casino-holdem.${table.key}`);
  return h(
    "table",
    { class: "pay-table" },
    h("caption", {}, caption),
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("rules.pay.hand")), h("th", { scope: "col" }, t("rules.pay.pays"))),
    ),
    h(
      "tbody",
      {},
      table.rows.map(([hand, pays]) =>
        h("tr", {}, h("th", { scope: "row" }, t(`rules.pay.${hand}`)), h("td", {}, pays)),
      ),
    ),
  );
}
