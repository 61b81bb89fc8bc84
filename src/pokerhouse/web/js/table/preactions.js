// Pre-actions: what to do when the turn comes, chosen while waiting for it.
//
// While another seat acts the bar offers, from the table's view: with nothing
// to call, Check/Fold, Check and Call any; facing a bet, Fold to any bet,
// Call (this amount) and Call any; at Teen Patti, Fold and Chaal (the
// current minimum). A choice holds only for the situation it was made in:
// a new street or hand clears every one, and a change in what there is to
// call clears Check and Call (an amount), so a raise never turns "call 20"
// into a call of 60. When the turn comes the choice is checked against the
// decision the server offers and sent as a plain `act`; if the decision does
// not hold it, nothing is sent and the player chooses.

import { h } from "../dom.js";

/** The viewer's situation in `view` for `seat`: what a pre-action assumes, or null. */
export function situation(view, seat) {
  const hand = view.hand;
  const entry = view.seats[seat];
  if (!hand || hand.over || !entry || !entry.in_hand || entry.folded || entry.all_in) return null;
  if (hand.to_act === null || hand.to_act === seat) return null;
  if (!entry.cards || !entry.cards.length) return null;
  const game = view.game;
  if (game === "3x4" || game === "razz") {
    const current = hand.facts ? hand.facts.current_bet || 0 : 0;
    const toCall = Math.max(0, current - (entry.bet || 0));
    return { game, hand: hand.number, street: hand.street, toCall: Math.min(toCall, entry.stack), allIn: toCall >= entry.stack };
  }
  if (game === "teen-patti") {
    const facts = hand.facts || {};
    const amount = entry.seen ? facts.seen_min : facts.blind_min;
    if (!Number.isInteger(amount)) return null;
    return { game, hand: hand.number, street: null, toCall: Math.min(amount, entry.stack), allIn: amount >= entry.stack };
  }
  return null;
}

/** The pre-actions offered in `now` (a situation): `[{id, amount?}]`. */
export function choices(now) {
  if (!now) return [];
  if (now.game === "teen-patti") return [{ id: "fold" }, { id: "chaal", amount: now.toCall }];
  if (now.toCall === 0) return [{ id: "check_fold" }, { id: "check" }, { id: "call_any" }];
  return [{ id: "fold" }, { id: "call", amount: now.toCall }, { id: "call_any" }];
}

/** Whether `chosen` (made in some situation) still holds in `now`. */
export function holds(chosen, now) {
  if (!chosen || !now) return false;
  if (chosen.hand !== now.hand || chosen.street !== now.street) return false;
  if (chosen.id === "check") return now.toCall === 0;
  if (chosen.id === "call" || chosen.id === "chaal") return now.toCall === chosen.amount;
  return true;
}

/** The action to send for `chosen` at `decision`, or null when the decision does not hold it. */
export function resolve(chosen, decision) {
  const offered = new Map(decision.actions.map((option) => [option.kind, option]));
  const check = offered.has("check") ? { kind: "check" } : null;
  const fold = offered.has("fold") ? { kind: "fold" } : null;
  const call = offered.get("call");
  switch (chosen.id) {
    case "check_fold":
    case "fold":
      // Nobody folds when checking is free.
      return check || fold;
    case "check":
      return check;
    case "call":
      return call && call.cost === chosen.amount ? { kind: "call" } : null;
    case "call_any":
      return call ? { kind: "call" } : check;
    case "chaal": {
      const bet = offered.get("bet");
      return bet && bet.min === chosen.amount ? { kind: "bet", amount: bet.min } : null;
    }
    default:
      return null;
  }
}

/**
 * The pre-action boxes for situation `now`, `chosen` ticked; `pick(choice or
 * null)` runs when the player ticks or unticks one.
 */
export function preActionsPanel(now, chosen, ctx, pick) {
  const { t, formatChips } = ctx;
  const items = choices(now).map((choice) => {
    const id = `pre-${choice.id}`;
    const ticked = Boolean(chosen && chosen.id === choice.id && holds(chosen, now));
    const box = h("input", { type: "checkbox", id, checked: ticked, dataset: { pre: choice.id } });
    box.addEventListener("change", () => pick(box.checked ? { ...choice, hand: now.hand, street: now.street } : null));
    const amount = choice.amount !== undefined ? formatChips(choice.amount) : "";
    const key = now.allIn && (choice.id === "call" || choice.id === "chaal") ? `pre.${choice.id}_all_in` : `pre.${choice.id}`;
    return h("label", { class: "pre-action", for: id }, box, " ", t(key, { amount }));
  });
  return h(
    "fieldset",
    { class: "pre-actions", id: "pre-actions" },
    h("legend", {}, t("pre.legend")),
    h("div", { class: "pre-list" }, items),
  );
}
