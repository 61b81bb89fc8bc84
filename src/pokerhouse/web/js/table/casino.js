// Casino Hold'em: placing each box's Ante and AA Bonus, the pay tables, and practice mode.

import { h } from "../dom.js";
import { checkRequest } from "./refusals.js";

const PRACTICE_KEY = "pokerhouse.practice";

export function practiceOn() {
  return localStorage.getItem(PRACTICE_KEY) === "1";
}

export function setPractice(on) {
  localStorage.setItem(PRACTICE_KEY, on ? "1" : "0");
}

const HANDS = [
  "royal_flush",
  "straight_flush",
  "four_of_a_kind",
  "full_house",
  "flush",
  "straight",
  "three_of_a_kind",
  "two_pair",
  "pair_of_aces",
  "straight_or_less",
];

/** The Ante and AA Bonus pay tables from the table's spec. */
export function payTables(spec, ctx) {
  const { t, formatNumber } = ctx;
  const table = (title, pays) =>
    h(
      "table",
      { class: "pays" },
      h("caption", {}, title),
      h(
        "tbody",
        {},
        HANDS.filter((name) => pays && name in pays).map((name) =>
          h("tr", {}, h("th", { scope: "row" }, t(`pays.${name}`)), h("td", {}, `${formatNumber(pays[name])}:1`)),
        ),
      ),
    );
  return h(
    "details",
    { class: "paytables", open: window.innerWidth > 900 },
    h("summary", {}, t("casino.pay_tables")),
    h(
      "div",
      { class: "pays-row" },
      table(t("casino.ante_pays"), spec.ante_pays),
      table(t("casino.bonus_pays"), spec.bonus_pays),
    ),
    h("p", { class: "help" }, t("casino.max_payout", { amount: ctx.formatChips(spec.max_payout) })),
  );
}

/**
 * The wager form for the viewer's boxes: one Ante and one AA Bonus field
 * each, sent as `wager` messages through `send` once every box's bets are
 * within the table's limits (else `options.say(words)` says why). Bets stand
 * for the next round. The form tells the page what it placed (a `wagers`
 * event), and with `options.repeat` offers Repeat bets (a `repeat-bets` event).
 */
export function wagerForm(seats, view, ctx, send, options = {}) {
  const { t, formatChips } = ctx;
  const spec = view.table.spec;
  const bonusMin = spec.bonus_min ?? spec.min_ante;
  const rows = [];
  const fields = [];
  for (const seat of seats) {
    const entry = view.seats[seat];
    const anteId = `ante-${seat}`;
    const bonusId = `bonus-${seat}`;
    const ante = h("input", {
      type: "number",
      id: anteId,
      min: 0,
      max: spec.max_ante,
      step: 1,
      value: entry.ante || spec.min_ante,
      inputmode: "numeric",
    });
    const bonus = h("input", {
      type: "number",
      id: bonusId,
      min: 0,
      max: spec.max_ante,
      step: 1,
      value: entry.bonus || 0,
      inputmode: "numeric",
    });
    fields.push({ seat, ante, bonus });
    rows.push(
      h(
        "fieldset",
        { class: "box-wager" },
        h("legend", {}, t("casino.box_n", { seat: seat + 1 })),
        h("label", { for: anteId }, t("casino.ante")),
        ante,
        h("label", { for: bonusId }, t("casino.bonus")),
        bonus,
      ),
    );
  }
  const repeat = options.repeat
    ? h("button", { type: "button", class: "ghost", id: "repeat-bets" }, t("casino.repeat_bets"))
    : null;
  const form = h(
    "form",
    { class: "wagers", novalidate: true },
    h("p", { class: "help" }, t("casino.wager_help", {
      min: formatChips(spec.min_ante),
      max: formatChips(spec.max_ante),
      bonus: formatChips(bonusMin),
    })),
    h("div", { class: "box-wagers" }, rows),
    h("button", { type: "submit", class: "button place-bets" }, t("casino.place_bets")),
    repeat,
  );
  if (repeat) {
    repeat.addEventListener("click", () => form.dispatchEvent(new CustomEvent("repeat-bets", { bubbles: true })));
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const wagers = fields.map(({ seat, ante, bonus }) => ({
      message: { type: "wager", table: view.table.id, seat, ante: Number(ante.value || "0"), bonus: Number(bonus.value || "0") },
      field: ante,
    }));
    // Every box's bets are checked before any is sent: all go, or none.
    for (const { message, field } of wagers) {
      const problem = checkRequest(message, view, ctx);
      if (problem) {
        options.say(problem);
        field.focus();
        return;
      }
    }
    for (const { message } of wagers) if (!send(message)) return;
    const placed = wagers.map(({ message }) => ({ seat: message.seat, ante: message.ante, bonus: message.bonus }));
    form.dispatchEvent(new CustomEvent("wagers", { bubbles: true, detail: placed }));
  });
  return form;
}

/** The practice panel: the exact call EV for each of the viewer's boxes that has one. */
export function practicePanel(values, ctx, onToggle, counting = false) {
  const { t, formatNumber } = ctx;
  const on = practiceOn();
  const toggle = h("input", { type: "checkbox", id: "practice", checked: on });
  toggle.addEventListener("change", () => {
    setPractice(toggle.checked);
    onToggle(toggle.checked);
  });
  const lines = [];
  if (on) {
    for (const [seat, value] of values) {
      const decimals = { minimumFractionDigits: 2, maximumFractionDigits: 4 };
      lines.push(
        h(
          "p",
          { class: `ev ${value.action}`, dataset: { seat } },
          t("casino.ev_line", {
            seat: Number(seat) + 1,
            call: formatNumber(value.call_ev, decimals),
            call_chips: formatNumber(value.call_ev_chips, decimals),
            fold_chips: formatNumber(value.fold_ev_chips),
          }),
          " ",
          h("strong", {}, value.action === "call" ? t("casino.ev_call") : t("casino.ev_fold")),
        ),
      );
    }
    if (!lines.length) lines.push(h("p", { class: "help" }, counting ? t("casino.ev_counting") : t("casino.ev_waiting")));
  }
  return h(
    "div",
    { class: "practice" },
    h("label", { class: "inline" }, toggle, " ", t("casino.practice")),
    h("div", { "aria-live": "polite" }, lines),
  );
}
