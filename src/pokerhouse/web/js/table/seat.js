// One seat at the felt: the player, stack, bet, cards and state, all from the view.

import { cardRow } from "../cards.js";
import { h } from "../dom.js";
import { clockRing } from "./clock.js";

/**
 * The element for seat `entry` (a view seat, or null when free). `state` holds
 * the whole view, the viewer's seats, the clock and the last hand's results.
 */
export function seatElement(index, entry, state, ctx) {
  const { t, formatChips } = ctx;
  const view = state.view;
  const hand = view.hand;
  const game = view.game;
  const mine = state.mySeats.has(index);
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
            h("span", { class: "sr-only" }, ` (${t("table.seat_n", { seat: index + 1 })})`),
          )
        : h("span", { class: "free" }, t(game === "casino-holdem" ? "table.free_box" : "table.free_seat")),
    );
  }
  const toAct = hand && hand.to_act === index;
  const classes = ["seat"];
  if (mine) classes.push("mine");
  if (toAct) classes.push("to-act");
  if (entry.folded) classes.push("folded");
  if (entry.sitting_out) classes.push("sitting-out");
  if (hand && !entry.in_hand && !entry.cards.length) classes.push("waiting");
  const badges = [];
  const button =
    view.button === index && game !== "casino-holdem"
      ? h("span", { class: "dealer-button", title: t("table.button") }, h("span", { "aria-hidden": "true" }, "D"), h("span", { class: "sr-only" }, t("table.button")))
      : null;
  if (view.bots && view.bots.includes(index)) badges.push(h("span", { class: "badge bot" }, t("table.bot")));
  if (entry.all_in) badges.push(h("span", { class: "badge all-in" }, t("table.all_in")));
  if (entry.folded) badges.push(h("span", { class: "badge" }, t("table.folded")));
  if (entry.sitting_out) badges.push(h("span", { class: "badge" }, t("table.sitting_out")));
  if (entry.leaving) badges.push(h("span", { class: "badge" }, t("table.leaving")));
  if (game === "teen-patti" && hand && entry.cards.length) {
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
  const result = state.results.get(index);
  const cards = entry.cards.length
    ? cardRow(entry.cards, { faceUp: game === "razz" ? entry.face_up : undefined })
    : null;

  const clock = toAct && state.clock && state.clock.seat === index ? clockRing(state.clock, state.clockSince, t) : null;
  const money = [];
  if (game === "casino-holdem") {
    if (entry.ante) money.push(h("span", { class: "wager" }, t("table.ante_n", { amount: formatChips(entry.ante) })));
    if (entry.bonus) money.push(h("span", { class: "wager" }, t("table.bonus_n", { amount: formatChips(entry.bonus) })));
    if (entry.called) money.push(h("span", { class: "wager called" }, t("table.called")));
  } else if (entry.bet) {
    money.push(h("span", { class: "bet" }, formatChips(entry.bet)));
  }
  const name = mine ? `${entry.player} (${t("table.you")})` : entry.player;
  return h(
    "div",
    {
      class: classes.join(" "),
      dataset: { seat: index, player: entry.player },
      "aria-current": toAct ? "true" : null,
      "aria-label": t("table.seat_label", { seat: index + 1, name: entry.player }),
      role: "group",
    },
    h(
      "div",
      { class: "plate" },
      clock,
      button,
      h("span", { class: "name" }, name),
      h("span", { class: "stack" }, formatChips(entry.stack)),
      toAct ? h("span", { class: "sr-only" }, t("table.to_act")) : null,
    ),
    h("div", { class: "badges" }, badges),
    cards ? h("div", { class: "hole" }, cards) : null,
    money.length ? h("div", { class: "money" }, money) : null,
    result ? h("div", { class: `result ${result.net > 0 ? "won" : result.net < 0 ? "lost" : ""}` }, result.text) : null,
  );
}
