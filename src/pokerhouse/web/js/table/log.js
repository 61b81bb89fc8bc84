// The table's events in words, for the action log (an aria-live region).

import { handText } from "../handnames.js";

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** "A♠" for "As"; "?" for a hidden card. */
export function shortCard(code) {
  if (!code) return "🂠";
  const rank = code.slice(0, -1).toUpperCase();
  return `${rank === "T" ? "10" : rank}${SUITS[code.slice(-1)] || ""}`;
}

function cards(list) {
  return (list || []).map(shortCard).join(" ");
}

/**
 * The line for one event, or null for events not worth a line. `name(seat)`
 * gives a seat's player ("the dealer" for -1), `me` the viewer's seats.
 */
export function describe(event, name, ctx, me, game = "") {
  const { t, formatChips } = ctx;
  const who = (seat) => name(seat);
  switch (event.type) {
    case "table_hand_started":
      return t("log.hand_started", { number: event.number });
    case "ante_posted":
      return t("log.ante", { name: who(event.seat), amount: formatChips(event.amount) });
    case "bonus_posted":
      return t("log.bonus_posted", { name: who(event.seat), amount: formatChips(event.amount) });
    case "street_started":
      return null;
    case "cards_dealt": {
      const visible = event.cards.filter(Boolean);
      if (!visible.length) return null;
      if (me.has(event.seat)) return t("log.dealt_you", { cards: cards(visible) });
      return t("log.dealt_up", { name: who(event.seat), cards: cards(visible) });
    }
    case "board_dealt":
      return t("log.board", { cards: cards(event.cards) });
    case "action_taken":
      return action(event, who(event.seat), ctx, game);
    case "bet_returned":
      return t("log.returned", { name: who(event.seat), amount: formatChips(event.amount) });
    case "hand_shown":
      return event.description
        ? t("log.shows_named", { name: who(event.seat), cards: cards(event.cards), hand: handText(event.description) })
        : t("log.shows", { name: who(event.seat), cards: cards(event.cards) });
    case "hand_mucked":
      return t("log.mucks", { name: who(event.seat) });
    case "pot_awarded":
      return event.winners
        .map((seat, index) =>
          event.description
            ? t("log.wins_with", { name: who(seat), amount: formatChips(event.shares[index]), hand: handText(event.description) })
            : t("log.wins", { name: who(seat), amount: formatChips(event.shares[index]) }),
        )
        .join(" ");
    case "table_hand_ended":
      return t("log.hand_ended", { number: event.number });
    case "hand_voided":
      return t("log.voided", { number: event.number });
    case "rake_taken":
      return t("log.rake", { amount: formatChips(event.amount ?? 0) });
    case "cards_looked":
      return me.has(event.seat) && event.cards.some(Boolean)
        ? t("log.looked_you", { cards: cards(event.cards) })
        : t("log.looked", { name: who(event.seat) });
    case "stake_raised":
      return t("log.stake", { amount: formatChips(event.stake) });
    case "sideshow_compared":
      return t("log.sideshow", { asker: who(event.asker), target: who(event.target), loser: who(event.loser) });
    case "bonus_settled":
      return event.won
        ? t("log.bonus_won", { name: who(event.seat), amount: formatChips(event.paid) })
        : t("log.bonus_lost", { name: who(event.seat), amount: formatChips(event.stake) });
    case "bonus_result": // another's box: the chips only
      return event.net > 0
        ? t("log.bonus_won", { name: who(event.seat), amount: formatChips(event.net) })
        : t("log.bonus_lost", { name: who(event.seat), amount: formatChips(event.stake) });
    case "dealer_qualified":
      return event.qualifies ? t("log.dealer_qualifies") : t("log.dealer_not_qualified");
    case "box_settled":
      return t(`log.box_${event.outcome}`, {
        name: who(event.seat),
        net: formatChips(event.net, { signed: true }),
      });
    case "house_settled":
      return null;
    case "player_sat":
      return t(game === "casino-holdem" ? "log.sat_box" : "log.sat", { name: event.player ?? who(event.seat), seat: event.seat + 1 });
    case "player_leaving":
      return t("log.leaving", { name: who(event.seat) });
    case "player_left":
      return t("log.left", { name: event.player ?? who(event.seat) });
    case "chips_added":
      return t("log.chips_added", { name: who(event.seat), amount: formatChips(event.amount) });
    case "player_busted":
      return t("log.busted", { name: who(event.seat) });
    case "sitting_out":
      return event.out === false
        ? t("log.sits_in", { name: who(event.seat) })
        : t("log.sits_out", { name: who(event.seat) });
    case "timed_out":
      return t("log.timed_out", { name: who(event.seat) });
    case "wager_set":
      return null;
    default:
      return null;
  }
}

function action(event, name, ctx, game) {
  const { t, formatChips } = ctx;
  if (game === "teen-patti" && event.action.kind === "bet") {
    // Teen Patti's amounts are the chips put in, not a total to raise to.
    return t("log.puts_in", { name, added: formatChips(event.added ?? 0) }) + (event.all_in ? ` ${t("log.all_in")}` : "");
  }
  const kind = event.action.kind;
  const amount = formatChips(event.action.amount ?? event.total ?? 0);
  const added = formatChips(event.added ?? 0);
  const allIn = event.all_in ? ` ${t("log.all_in")}` : "";
  switch (kind) {
    case "bet":
    case "raise":
    case "complete":
      return t(`log.${kind}`, { name, amount, added }) + allIn;
    case "call":
    case "bring_in":
      return t(`log.${kind}`, { name, amount: added }) + allIn;
    default:
      return t(`log.${kind}`, { name, added });
  }
}
