// The middle of the felt: the board (3x4's 2+1+1, Casino Hold'em's flop, turn and river),
// the dealer's cards, the pots, and the game's public facts.

import { cardElement } from "../cards.js";
import { h } from "../dom.js";

/** How each game's board is dealt, in groups (so an undealt street shows as a gap). */
const BOARD_GROUPS = { "3x4": [2, 1, 1], "casino-holdem": [3, 1, 1] };

function board(game, cards, t) {
  const groups = BOARD_GROUPS[game];
  if (!groups) return null;
  const row = h("div", { class: "board", role: "group", "aria-label": t("table.board") });
  let index = 0;
  for (const size of groups) {
    const group = h("span", { class: "board-group" });
    for (let i = 0; i < size; i += 1) {
      const code = cards[index];
      group.append(code ? cardElement(code) : h("span", { class: "card slot", "aria-hidden": "true" }));
      index += 1;
    }
    row.append(group);
  }
  return row;
}

function pots(hand, ctx) {
  const { t, formatChips } = ctx;
  if (!hand.pots || hand.pots.length <= 1) {
    return h("div", { class: "pot" }, t("table.pot", { amount: formatChips(hand.pot) }));
  }
  return h(
    "div",
    { class: "pot" },
    h("div", {}, t("table.pot_total", { amount: formatChips(hand.pot) })),
    h(
      "ul",
      { class: "pots" },
      hand.pots.map((pot, index) =>
        h(
          "li",
          {},
          index === 0
            ? t("table.main_pot", { amount: formatChips(pot.amount) })
            : t("table.side_pot", { number: index, amount: formatChips(pot.amount) }),
        ),
      ),
    ),
  );
}

/** The centre of the felt for `view`. */
export function centre(view, ctx) {
  const { t } = ctx;
  const hand = view.hand;
  const game = view.game;
  const parts = [];
  if (game === "casino-holdem") {
    const dealer = hand ? hand.facts.dealer_cards : [];
    const cards = dealer && dealer.length ? dealer : hand ? [null, null] : [];
    const qualifies = hand ? hand.facts.dealer_qualifies : null;
    parts.push(
      h(
        "div",
        { class: "dealer", role: "group", "aria-label": t("table.dealer") },
        h("span", { class: "label" }, t("table.dealer")),
        h("span", { class: "cards" }, cards.map((code) => cardElement(code))),
        qualifies === null || qualifies === undefined
          ? null
          : h("span", { class: qualifies ? "badge" : "badge warn" }, qualifies ? t("table.dealer_qualifies") : t("table.dealer_not_qualified")),
      ),
    );
  }
  if (hand) {
    const drawn = board(game, hand.board || [], t);
    if (drawn) parts.push(drawn);
    if (game !== "casino-holdem") parts.push(pots(hand, ctx));
    parts.push(
      h(
        "div",
        { class: "street" },
        t("table.hand_number", { number: hand.number }),
        hand.street ? ` · ${t(`street.${hand.street}`) === `street.${hand.street}` ? hand.street : t(`street.${hand.street}`)}` : "",
      ),
    );
  } else {
    parts.push(h("div", { class: "street waiting-text" }, t(view.window && view.window.open ? "table.bets_open" : "table.waiting")));
  }
  return h("div", { class: "centre" }, parts);
}
