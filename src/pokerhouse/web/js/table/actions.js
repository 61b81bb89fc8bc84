// The action bar: exactly the actions the server's decision offers, nothing more.
//
// Each action is a button with its cost (a call, a show, a bring-in) and its
// keyboard shortcut on it; an amount that puts the player all-in says so.
// Sized actions (bet, raise, complete) get a slider, a number field and the
// server's presets (min, half pot, pot, all-in or max), each showing its
// amount; a fixed-limit bet, whose min is its max, is a plain button. At
// Teen Patti the smallest bet is also a button of its own, Call (Chaal).
//
// The keyboard contract (docs/web.md): every key works wherever the focus is,
// except inside a text field the player put the focus in (the chat, the
// amount box), where Esc gives the keys back. A size key sets the amount and
// leaves the focus where it was, so the next action key acts. No button
// takes the focus by itself, so Enter or Space at a new decision does
// nothing; and folding when checking is free always asks once (the Fold
// button turns into "Fold anyway?").

import { h } from "../dom.js";

/** Shortcut keys by action kind (one key may serve two kinds that never come together). */
export const SHORTCUTS = {
  fold: "f",
  check: "c",
  call: "c",
  chaal: "c",
  bet: "r",
  raise: "r",
  complete: "r",
  bring_in: "b",
  look: "l",
  show: "s",
  sideshow: "d",
  accept: "a",
  decline: "n",
  show_hand: "w",
  muck: "m",
};

/** The decision's actions as the bar names them: a showdown's `show` is "show hand" outside Teen Patti. */
function normalise(option, game) {
  if (option.kind === "show" && game !== "teen-patti" && option.cost === undefined) return { ...option, kind: "show_hand", sent: "show" };
  return option;
}

/** Whether a decision is only the showdown's choice: show or muck. */
export function isShowOrMuck(decision, game) {
  const kinds = decision.actions.map((option) => normalise(option, game).kind);
  return kinds.includes("muck") && kinds.every((kind) => kind === "muck" || kind === "show_hand");
}

/** Whether `target` takes typed text (keys typed there are the player's words or digits). */
export function isTextField(target) {
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target instanceof HTMLInputElement && !["range", "checkbox", "radio", "button", "submit", "reset"].includes(target.type);
}

/**
 * The shortcut a key press names: its letter or digit, lower case. A letter of
 * another alphabet (a Russian keyboard's "к") or a digit key's other sign
 * counts as the Latin letter or digit its key carries (`event.code`).
 */
export function shortcutOf(event) {
  const key = event.key && event.key.length === 1 ? event.key.toLowerCase() : "";
  if (/^[a-z0-9]$/.test(key)) return key;
  const code = /^(?:Key([A-Z])|(?:Digit|Numpad)([0-9]))$/.exec(event.code || "");
  if (key && code) return (code[1] || code[2]).toLowerCase();
  return key;
}

/**
 * Draw the bar for `decision` (from a `private` or snapshot's `mine`) into an
 * element and return {el, key(event)}: `key` handles a shortcut, true if it did.
 * `act({kind, amount?})` sends the action. Options: `t`, `formatChips`, `game`,
 * `bet` (the seat's chips already in this round), `said(text)` for a screen
 * reader, `home()` to put the focus back where keys act (Esc in a text field).
 */
export function actionBar(decision, options) {
  const { t, formatChips, game, act } = options;
  const said = options.said || (() => {});
  const stack = Number.isInteger(decision.stack) ? decision.stack : null;
  const inRound = options.bet || 0;
  const buttons = [];
  const byKey = new Map();
  let sized = null;
  let pending = false;
  const kinds = decision.actions.map((option) => normalise(option, game));
  const checkFree = kinds.some((option) => option.kind === "check");

  function send(action, button) {
    if (pending) return;
    pending = true;
    for (const b of buttons) b.disabled = true;
    if (button) button.classList.add("sent");
    act(action);
  }

  /** Whether putting `amount` in (a total "to" for bets and raises at 3x4 and Razz) is all-in. */
  function allIn(amount, to) {
    if (stack === null || !Number.isFinite(amount)) return false;
    return to && game !== "teen-patti" ? amount >= stack + inRound : amount >= stack;
  }

  function fixedLabel(option) {
    const kind = option.kind;
    if (option.min !== undefined) {
      const text = t(`act.${kind}_amount`, { amount: formatChips(option.min) });
      return allIn(option.min, true) ? t("act.all_in_label", { action: text }) : text;
    }
    if (option.cost !== undefined && option.cost !== null) {
      const text = t(`act.${kind}_cost`, { amount: formatChips(option.cost) });
      return kind !== "show" && kind !== "sideshow" && allIn(option.cost, false) ? t("act.all_in_label", { action: text }) : text;
    }
    return t(`act.${kind}`);
  }

  function button(kind, text, extra = {}) {
    const key = SHORTCUTS[kind];
    const el = h(
      "button",
      {
        type: "button",
        class: `act act-${kind}${extra.primary ? " primary" : ""}`,
        dataset: { kind },
        "aria-keyshortcuts": key ? key.toUpperCase() : null,
      },
      h("span", { class: "label" }, text),
      key ? h("kbd", { "aria-hidden": "true" }, key.toUpperCase()) : null,
    );
    buttons.push(el);
    if (key && !byKey.has(key)) byKey.set(key, el);
    return el;
  }

  const fixed = h("div", { class: "fixed-actions" });
  const sizing = h("div", { class: "sizing" });
  for (const option of kinds) {
    if (option.min !== undefined && option.max !== undefined && option.min !== option.max) {
      sized = option;
      continue;
    }
    const el = button(option.kind, fixedLabel(option));
    const action = option.min !== undefined ? { kind: option.kind, amount: option.min } : { kind: option.sent || option.kind };
    if (option.kind === "fold" && checkFree) {
      // Folding when checking is free: the first press asks, the second folds.
      let asked = false;
      el.addEventListener("click", () => {
        if (!asked) {
          asked = true;
          el.classList.add("confirming");
          el.querySelector(".label").textContent = t("act.fold_confirm");
          said(t("act.fold_confirm_said"));
          return;
        }
        send(action, el);
      });
    } else {
      el.addEventListener("click", () => send(action, el));
    }
    fixed.append(el);
  }

  if (sized && game === "teen-patti" && sized.kind === "bet") {
    // The smallest bet, the one most turns are: Call (Chaal) as a button of its own.
    const amount = sized.min;
    const text = t("act.chaal", { amount: formatChips(amount) });
    const el = button("chaal", allIn(amount, false) ? t("act.all_in_label", { action: text }) : text);
    el.addEventListener("click", () => send({ kind: "bet", amount }, el));
    const fold = fixed.querySelector(".act-fold");
    if (fold && fold.nextSibling) fixed.insertBefore(el, fold.nextSibling);
    else fixed.append(el);
  }

  if (sized) {
    const option = sized;
    const id = `amount-${Math.random().toString(36).slice(2, 8)}`;
    const slider = h("input", {
      type: "range",
      min: option.min,
      max: option.max,
      step: 1,
      value: option.min,
      "aria-label": t("act.amount_slider"),
      class: "slider",
    });
    const amountInput = h("input", {
      type: "number",
      id,
      min: option.min,
      max: option.max,
      step: 1,
      value: option.min,
      inputmode: "numeric",
      class: "amount",
    });
    const to = !(game === "teen-patti" || option.kind === "bet");
    const unit = to ? "to" : "amount";
    const main = button(option.kind, "", { primary: true });
    const error = h("span", { class: "error small", role: "alert" });
    const current = () => Number.parseInt(amountInput.value, 10);
    function update(source) {
      let value = current();
      if (source === slider) {
        value = Number.parseInt(slider.value, 10);
        amountInput.value = String(value);
      } else if (Number.isFinite(value)) {
        slider.value = String(Math.min(option.max, Math.max(option.min, value)));
      }
      const valid = Number.isFinite(value) && value >= option.min && value <= option.max;
      main.disabled = pending || !valid;
      const shown = Number.isFinite(value) ? value : option.min;
      const text = t(`act.${option.kind}_${unit}`, { amount: formatChips(shown) });
      main.querySelector(".label").textContent = valid && allIn(shown, game !== "teen-patti") ? t("act.all_in_label", { action: text }) : text;
      error.textContent = valid
        ? ""
        : t("act.amount_range", { min: formatChips(option.min), max: formatChips(option.max) });
    }
    slider.addEventListener("input", () => update(slider));
    amountInput.addEventListener("input", () => update(amountInput));
    amountInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        if (!main.disabled) main.click();
      }
    });
    main.addEventListener("click", () => {
      const value = current();
      if (Number.isFinite(value) && value >= option.min && value <= option.max) {
        send({ kind: option.kind, amount: value }, main);
      }
    });
    const presets = (option.presets || []).map((preset, index) => {
      // The amount is on the button; the shortcut digit is only in its hint, never beside
      // the amount where it would read as one.
      const key = String(index + 1);
      const presetButton = h(
        "button",
        {
          type: "button",
          class: "preset ghost small",
          dataset: { preset: preset.name, amount: preset.amount },
          "aria-keyshortcuts": key,
          title: t("act.preset_key", { key }),
        },
        t("act.preset", { name: t(`preset.${preset.name}`), amount: formatChips(preset.amount) }),
      );
      // The size is set and the focus stays where it was: the next action key acts.
      presetButton.addEventListener("click", () => {
        amountInput.value = String(preset.amount);
        update(amountInput);
      });
      byKey.set(key, presetButton);
      buttons.push(presetButton);
      return presetButton;
    });
    // The sizes on one line, the bet or raise with the other actions under them.
    sizing.append(
      h("div", { class: "presets", role: "group", "aria-label": t("act.presets") }, presets),
      h("div", { class: "amount-row" }, h("label", { for: id, class: "sr-only" }, t("act.amount")), slider, amountInput),
      error,
    );
    fixed.append(main);
    update(amountInput);
  }

  const el = h("div", { class: sized ? "actions sized" : "actions", role: "group", "aria-label": t("act.your_turn") }, sized ? sizing : null, fixed);

  function key(event) {
    if (pending || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (isTextField(event.target)) {
      // The player's own field takes every key but Esc, which gives the keys back.
      if (event.key !== "Escape" || !options.home) return false;
      event.preventDefault();
      options.home();
      return true;
    }
    const found = byKey.get(shortcutOf(event));
    if (!found || found.disabled) return false;
    event.preventDefault();
    found.click();
    return true;
  }

  return { el, key };
}
