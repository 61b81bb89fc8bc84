// A refusal from the room in the reader's language, with the page's own numbers.
//
// The server's `error` has a stable `code` and an English sentence for
// developers (with seats counted from 0). The page never shows that sentence:
// it says the code's words from the catalogue (`refusal.<code>`, or
// `refusal.<code>.<request>` when the words depend on what was asked), filled
// in from the request the page sent (the seat as the page numbers it, the
// amount, the table's limits), so "seat 4 is in the hand" for the player's
// seat 5 reads "Seat 5 is in a hand: chips are added after it".

import { has } from "../i18n.js";

/** Codes that mean "the page sent something the room did not understand". */
const GARBLED = new Set(["bad_message", "bad_json", "unknown_type", "not_an_object", "frame_too_large", "binary_frame"]);
/** Codes that mean "not that action, not now". */
const NOT_NOW = new Set(["action_not_allowed", "illegal_action", "no_decision", "unexpected_amount", "not_an_action", "unknown_action", "malformed_action", "extra_action", "empty_action"]);

/**
 * The words for `error` (an `error` message), given `request` (the message
 * the page sent that it answers, if known) and `view` (the table's last view).
 */
export function refusalText(error, request, view, ctx) {
  const { t, formatChips } = ctx;
  let code = error.code;
  if (GARBLED.has(code)) code = "bad_message";
  if (NOT_NOW.has(code)) code = "action_not_allowed";
  if (code === "out_of_turn") code = "not_your_turn";
  if (code === "zero_amount" || code === "negative_amount") code = "bad_amount";
  const casino = view && view.game === "casino-holdem";
  const info = view ? view.table : null;
  const seatIndex = request && typeof request.seat === "number" ? request.seat : null;
  const entry = view && seatIndex !== null ? view.seats[seatIndex] : null;
  const stack = entry ? entry.stack : 0;
  const spec = info ? info.spec || {} : {};
  const vars = {
    seat: seatIndex === null ? "" : seatIndex + 1,
    box: seatIndex === null ? "" : seatIndex + 1,
    min: formatChips(info ? info.min_buy_in : 0),
    max: formatChips(info ? info.max_buy_in : 0),
    amount: formatChips(request && Number.isFinite(request.amount) ? request.amount : request && Number.isFinite(request.buy_in) ? request.buy_in : 0),
    after: formatChips(stack + (request && Number.isFinite(request.amount) ? request.amount : 0)),
    min_ante: formatChips(spec.min_ante ?? 0),
    max_ante: formatChips(spec.max_ante ?? 0),
    bonus: formatChips(spec.bonus_min ?? spec.min_ante ?? 0),
    boxes: info ? info.max_boxes || 1 : 1,
  };
  const kind = request ? request.type : "";
  const keys = [];
  if (kind) keys.push(`refusal.${code}.${kind}`);
  if (casino) keys.push(`refusal.${code}.casino`);
  keys.push(`refusal.${code}`);
  for (const key of keys) if (has(key)) return t(key, vars);
  return t("refusal.other");
}

/**
 * Check a request before it is sent, as the room would; the words of the
 * first problem, or null when it may go. Only what the page knows for sure is
 * checked here (whole numbers, the table's limits); the room decides the rest.
 */
export function checkRequest(request, view, ctx) {
  const { t, formatChips } = ctx;
  const info = view.table;
  const spec = info.spec || {};
  if (request.type === "add_chips") {
    const entry = view.seats[request.seat];
    if (!Number.isInteger(request.amount) || request.amount < 1) return t("refusal.bad_amount");
    const after = (entry ? entry.stack : 0) + request.amount;
    const vars = { after: formatChips(after), max: formatChips(info.max_buy_in), min: formatChips(info.min_buy_in), seat: request.seat + 1 };
    if (after > info.max_buy_in) return t("refusal.buy_in_too_large.add_chips", vars);
    if (after < info.min_buy_in) return t("refusal.buy_in_too_small.add_chips", vars);
    return null;
  }
  if (request.type === "wager") {
    const { ante, bonus } = request;
    const vars = {
      min_ante: formatChips(spec.min_ante ?? 0),
      max_ante: formatChips(spec.max_ante ?? 0),
      bonus: formatChips(spec.bonus_min ?? spec.min_ante ?? 0),
      box: request.seat + 1,
      ante: formatChips(Number.isInteger(ante) ? ante : 0),
    };
    if (!Number.isInteger(ante) || !Number.isInteger(bonus) || ante < 0 || bonus < 0) return t("refusal.bad_wager", vars);
    if (ante === 0 && bonus === 0) return null; // the box sits the round out
    if (ante < (spec.min_ante ?? 0) || ante > (spec.max_ante ?? Infinity)) return t("refusal.bad_ante", vars);
    const least = spec.bonus_min ?? spec.min_ante ?? 0;
    if (bonus && (bonus < least || bonus > ante)) return t("refusal.bad_bonus", vars);
    return null;
  }
  if (request.type === "sit") {
    const vars = { min: formatChips(info.min_buy_in), max: formatChips(info.max_buy_in) };
    if (!Number.isInteger(request.buy_in) || request.buy_in < info.min_buy_in || request.buy_in > info.max_buy_in) {
      return t("table.bad_buy_in", vars);
    }
  }
  return null;
}
