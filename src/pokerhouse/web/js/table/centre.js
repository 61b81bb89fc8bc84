// The middle of the felt: the board (3x4's 2+1+1, Casino Hold'em's flop, turn and river),
// the dealer's cards, the pots, and the game's public facts; after a hand, who won what.

import { cardElement } from "../cards.js";
import { h } from "../dom.js";
import { handText } from "../handnames.js";
import { seatName } from "./seat.js";
import { winningCards } from "./winning.js";

/** How each game's board is dealt, in groups (so an undealt street shows as a gap). */
const BOARD_GROUPS = { "3x4": [2, 1, 1], "casino-holdem": [3, 1, 1] };

function board(game, cards, t, marks = {}) {
  const groups = BOARD_GROUPS[game];
  if (!groups) return null;
  const row = h("div", { class: "board", role: "group", "aria-label": t("table.board") });
  let index = 0;
  for (const size of groups) {
    const group = h("span", { class: "board-group" });
    for (let i = 0; i < size; i += 1) {
      const code = cards[index];
      if (code) {
        const card = cardElement(code);
        if (marks.win && marks.win.has(code)) card.classList.add("win");
        if (marks.dealtFrom !== undefined && index >= marks.dealtFrom) {
          card.classList.add("dealt");
          card.style.setProperty("--k", String(index - marks.dealtFrom));
        }
        group.append(card);
      } else {
        group.append(h("span", { class: "card slot", "aria-hidden": "true" }));
      }
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

/** The cards of the board and the dealer that make a winning hand of the finished `picture`. */
export function winningBoard(view, picture) {
  const boardCards = picture.board;
  const win = new Set();
  const add = (cards, description) => {
    for (const code of winningCards(description, [...cards, ...boardCards], view.game)) win.add(code);
  };
  if (view.game === "casino-holdem") {
    let dealerWon = false;
    for (const [seat, box] of picture.boxes) {
      const shown = picture.seats.get(seat);
      if (box.outcome === "won" && shown && shown.description) add(shown.cards, shown.description);
      if (box.outcome === "lost") dealerWon = true;
    }
    if (dealerWon && picture.dealer.description) add(picture.dealer.cards, picture.dealer.description);
    return win;
  }
  const main = picture.awards.find((award) => award.pot === 0) || picture.awards[0];
  if (main && main.description) {
    for (const seat of main.winners) {
      const shown = picture.seats.get(seat);
      if (shown && shown.shown) add(shown.cards, main.description);
    }
  }
  return win;
}

/** The lines saying who won what, under the board of a finished hand. */
function awards(view, picture, ctx) {
  const { t, formatChips } = ctx;
  const name = (seat) => seatName(view, seat, t);
  if (view.game === "casino-holdem") {
    const house = [...picture.boxes.values()].reduce((sum, box) => sum - box.net, 0);
    if (!picture.boxes.size) return null;
    return h("ul", { class: "awards" }, h("li", {}, t(house > 0 ? "table.house_wins" : house < 0 ? "table.house_pays" : "table.house_even", { amount: formatChips(Math.abs(house)) })));
  }
  const lines = [];
  for (const award of picture.awards) {
    const pot = award.pot === 0 ? "" : t("table.side_pot_name", { number: award.pot });
    award.winners.forEach((seat, index) => {
      const amount = formatChips(award.shares[index]);
      const text = award.description
        ? t("table.wins_with", { name: name(seat), amount, hand: handText(award.description) })
        : t("table.wins", { name: name(seat), amount });
      lines.push(h("li", { dataset: { seat } }, pot ? `${pot}: ${text}` : text));
    });
  }
  return lines.length ? h("ul", { class: "awards" }, lines) : null;
}

/** The centre of the felt for `view` (`picture`: the page's record, when the hand is over). */
export function centre(view, ctx, picture = null) {
  const { t } = ctx;
  const hand = view.hand;
  const game = view.game;
  const over = Boolean(hand && hand.over && picture);
  const win = over ? winningBoard(view, picture) : new Set();
  const parts = [];
  if (game === "casino-holdem") {
    const dealer = hand ? hand.facts.dealer_cards : [];
    const cards = dealer && dealer.length ? dealer : hand ? [null, null] : [];
    const qualifies = hand ? hand.facts.dealer_qualifies : null;
    const described = over && picture.dealer.description;
    const elements = cards.map((code) => {
      const card = cardElement(code);
      if (code && win.has(code)) card.classList.add("win");
      if (over && code && picture.dealer.revealed) {
        card.classList.add("revealed");
        card.style.setProperty("--i", String(picture.dealer.order ?? 0));
      }
      return card;
    });
    parts.push(
      h(
        "div",
        { class: "dealer", role: "group", "aria-label": t("table.dealer") },
        h("span", { class: "label" }, t("table.dealer")),
        h("span", { class: "cards" }, elements),
        described ? h("span", { class: "shown-name", dataset: { order: picture.dealer.order ?? 0 } }, handText(described)) : null,
        qualifies === null || qualifies === undefined
          ? null
          : h("span", { class: qualifies ? "badge" : "badge warn" }, qualifies ? t("table.dealer_qualifies") : t("table.dealer_not_qualified")),
      ),
    );
  }
  if (hand) {
    const drawn = board(game, hand.board || [], t, over ? { win, dealtFrom: picture.liveBoard } : {});
    if (drawn) parts.push(drawn);
    if (over) {
      const said = awards(view, picture, ctx);
      if (said) parts.push(said);
      parts.push(h("div", { class: "street hand-over" }, t("table.hand_over", { number: hand.number })));
    } else {
      if (game !== "casino-holdem") parts.push(pots(hand, ctx));
      parts.push(
        h(
          "div",
          { class: "street" },
          t("table.hand_number", { number: hand.number }),
          hand.street ? ` · ${t(`street.${hand.street}`) === `street.${hand.street}` ? hand.street : t(`street.${hand.street}`)}` : "",
        ),
      );
    }
  } else {
    parts.push(h("div", { class: "street waiting-text" }, t(view.window && view.window.open ? "table.bets_open" : "table.waiting")));
  }
  return h("div", { class: over ? "centre over" : "centre" }, parts);
}
