// One seat at the felt: the player, stack, bet, cards and state, all from the view;
// after a hand, the cards it showed, their name, the cards that won and its result.

import { cardRow } from "../cards.js";
import { h } from "../dom.js";
import { handText } from "../handnames.js";
import { clockRing } from "./clock.js";
import { winningCards } from "./winning.js";

/** A seat's name for the page: its player, and at Casino Hold'em its box when the player holds several. */
export function seatName(view, index, t) {
  const entry = view.seats[index];
  if (!entry) return t("table.seat_n", { seat: index + 1 });
  if (view.game === "casino-holdem") {
    const boxes = view.seats.filter((other) => other && other.player === entry.player).length;
    if (boxes > 1) return t("table.player_box", { name: entry.player, box: index + 1 });
  }
  return entry.player;
}

/** The seat's result after the hand: the text and whether it won, lost or neither. */
function result(index, picture, game, ctx) {
  const { t, formatChips } = ctx;
  if (!picture) return null;
  if (game === "casino-holdem") {
    const box = picture.boxes.get(index);
    if (!box) return null;
    return { net: box.net, text: `${t(`outcome.${box.outcome}`)} ${formatChips(box.net, { signed: true })}` };
  }
  if (!picture.net.has(index)) return null;
  const net = picture.net.get(index);
  return { net, text: formatChips(net, { signed: true }) };
}

/** Whether `index` took (a share of) a pot or won its box. */
export function isWinner(index, picture) {
  if (!picture) return false;
  const box = picture.boxes.get(index);
  if (box) return box.outcome === "won" || (box.outcome === "dealer_not_qualified" && box.net > 0);
  return picture.awards.some((award) => award.winners.includes(index));
}

/**
 * The element for seat `entry` (a view seat, or null when free). `state` holds
 * the view to draw, the viewer's seats, the clock, and `picture` when the view
 * is a finished hand drawn from the page's own record.
 */
export function seatElement(index, entry, state, ctx) {
  const { t, formatChips } = ctx;
  const view = state.view;
  const hand = view.hand;
  const game = view.game;
  const mine = state.mySeats.has(index);
  const picture = hand && hand.over ? state.picture : null;
  if (!entry) {
    const canSit = state.canSit;
    return h(
      "div",
      { class: "seat empty", dataset: { seat: index } },
      canSit
        ? h(
            "button",
            {
              type: "button",
              class: "ghost small sit-here",
              dataset: { seat: index },
              onclick: () => state.onSit(index),
            },
            t(game === "casino-holdem" ? "table.take_box" : "table.sit_here"),
            // The seat's number for screen readers, after the visible words (so both agree).
            h("span", { class: "sr-only" }, ` (${t(game === "casino-holdem" ? "table.box_n" : "table.seat_n", { seat: index + 1 })})`),
          )
        : h("span", { class: "free" }, t(game === "casino-holdem" ? "table.free_box" : "table.free_seat")),
    );
  }
  const toAct = hand && hand.to_act === index;
  const shown = picture ? picture.seats.get(index) : null;
  const won = picture ? isWinner(index, picture) : false;
  const classes = ["seat"];
  if (mine) classes.push("mine");
  if (toAct) classes.push("to-act");
  if (entry.folded) classes.push("folded");
  if (entry.sitting_out) classes.push("sitting-out");
  if (won) classes.push("winner");
  if (hand && !entry.in_hand && !entry.cards.length) classes.push("waiting");
  const badges = [];
  const button =
    view.button === index && game !== "casino-holdem"
      ? h("span", { class: "dealer-button", title: t("table.button") }, h("span", { "aria-hidden": "true" }, "D"), h("span", { class: "sr-only" }, t("table.button")))
      : null;
  if (view.bots && view.bots.includes(index)) badges.push(h("span", { class: "badge bot" }, t("table.bot")));
  if (entry.all_in) badges.push(h("span", { class: "badge all-in" }, t("table.all_in")));
  if (entry.folded) badges.push(h("span", { class: "badge" }, t("table.folded")));
  if (shown && shown.mucked) badges.push(h("span", { class: "badge" }, t("table.mucked")));
  if (entry.sitting_out) badges.push(h("span", { class: "badge" }, t("table.sitting_out")));
  if (entry.leaving) badges.push(h("span", { class: "badge" }, t("table.leaving")));
  if (entry.busted && !entry.in_hand) badges.push(h("span", { class: "badge warn-badge" }, t("table.busted")));
  if (game === "teen-patti" && hand && !hand.over && entry.cards.length) {
    badges.push(
      h(
        "span",
        { class: entry.seen ? "badge seen" : "badge blind" },
        entry.seen ? t("table.seen") : t("table.blind"),
      ),
    );
  }
  if (hand && hand.facts && hand.facts.bring_in === index) {
    badges.push(h("span", { class: "badge bring-in" }, t("table.bring_in")));
  }
  const outcome = result(index, picture, game, ctx);
  let cards = null;
  if (entry.cards.length) {
    cards = cardRow(entry.cards, { faceUp: game === "razz" ? entry.face_up : undefined });
    if (shown) {
      const board = hand.board || [];
      const best = won && shown.description ? winningCards(shown.description, [...entry.cards, ...board], game) : new Set();
      cards.querySelectorAll(".card").forEach((card, position) => {
        const code = card.dataset.card;
        if (code && best.has(code)) card.classList.add("win");
        if (code && shown.revealed.has(code)) {
          card.classList.add("revealed");
          card.style.setProperty("--i", String(shown.order ?? 0));
          card.style.setProperty("--j", String(position));
        }
      });
    }
  }

  const clock = toAct && state.clock && state.clock.seat === index ? clockRing(state.clock, state.clockSince, t) : null;
  const money = [];
  if (game === "casino-holdem") {
    if (entry.ante) money.push(h("span", { class: "wager" }, t("table.ante_n", { amount: formatChips(entry.ante) })));
    if (entry.bonus) money.push(h("span", { class: "wager" }, t("table.bonus_n", { amount: formatChips(entry.bonus) })));
    if (entry.called && !picture) money.push(h("span", { class: "wager called" }, t("table.called")));
  } else if (entry.bet) {
    money.push(h("span", { class: "bet" }, formatChips(entry.bet)));
  }
  const name = mine ? `${entry.player} (${t("table.you")})` : entry.player;
  const casino = game === "casino-holdem";
  return h(
    "div",
    {
      class: classes.join(" "),
      dataset: { seat: index, player: entry.player },
      "aria-current": toAct ? "true" : null,
      "aria-label": t(casino ? "table.box_label" : "table.seat_label", { seat: index + 1, name: entry.player }),
      role: "group",
    },
    h(
      "div",
      { class: "plate" },
      clock,
      button,
      h("span", { class: "name" }, name),
      h("span", { class: "stack" }, formatChips(entry.stack)),
      casino ? h("span", { class: "box-number" }, t("table.box_n", { seat: index + 1 })) : null,
      toAct ? h("span", { class: "sr-only" }, t("table.to_act")) : null,
    ),
    badges.length ? h("div", { class: "badges" }, badges) : null,
    cards ? h("div", { class: "hole" }, cards) : null,
    shown && shown.description ? h("div", { class: "shown-name", dataset: { order: shown.order ?? 0 } }, handText(shown.description)) : null,
    money.length ? h("div", { class: "money" }, money) : null,
    outcome ? h("div", { class: `result ${outcome.net > 0 ? "won" : outcome.net < 0 ? "lost" : ""}` }, outcome.text) : null,
  );
}
