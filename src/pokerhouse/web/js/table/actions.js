// The action bar: exactly the actions the server's decision offers, nothing more.
//
// Each action is a button with its cost (a call, a show, a bring-in) and its
// keyboard shortcut on it. Sized actions (bet, raise, complete) get a slider,
// a number field and the server's presets (min, half pot, pot, all-in or max);
// a fixed-limit bet, whose min is its max, is a plain button.

import { h } from "../dom.js";

/** Shortcut keys by action kind (one key may serve two kinds that never come together). */
export const SHORTCUTS = {
  fold: "f",
  check: "c",
  call: "c",
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

/**
 * Draw the bar for `decision` (from a `private` or snapshot's `mine`) into an
 * element and return {el, key(event)}: `key` handles a shortcut, true if it did.
 * `act({kind, amount?})` sends the action.
 */
export function actionBar(decision, options) {
  const { t, formatChips, game, act } = options;
  const buttons = [];
  const byKey = new Map();
  let amountInput = null;
  let sized = null;
  let pending = false;

  function send(action, button) {
    if (pending) return;
    pending = true;
    for (const b of buttons) b.disabled = true;
    if (button) button.classList.add("sent");
    act(action);
  }

  function label(option) {
    const kind = option.kind;
    if (option.cost !== undefined && option.cost !== null && option.min === undefined) {
      return t(`act.${kind}_cost`, { amount: formatChips(option.cost) });
    }
    return t(`act.${kind}`);
  }

  const fixed = h("div", { class: "fixed-actions" });
  const sizing = h("div", { class: "sizing" });
  for (const option of decision.actions) {
    const key = SHORTCUTS[option.kind];
    if (option.min !== undefined && option.max !== undefined && option.min !== option.max) {
      sized = option;
      continue;
    }
    const amount = option.min !== undefined ? option.min : undefined;
    const text =
      amount !== undefined ? t(`act.${option.kind}_amount`, { amount: formatChips(amount) }) : label(option);
    const button = h(
      "button",
      {
        type: "button",
        class: `act act-${option.kind}`,
        dataset: { kind: option.kind },
        "aria-keyshortcuts": key ? key.toUpperCase() : null,
      },
      h("span", {}, text),
      key ? h("kbd", {}, key.toUpperCase()) : null,
    );
    button.addEventListener("click", () =>
      send(amount !== undefined ? { kind: option.kind, amount } : { kind: option.kind }, button),
    );
    buttons.push(button);
    if (key) byKey.set(key, button);
    fixed.append(button);
  }

  if (sized) {
    const option = sized;
    const key = SHORTCUTS[option.kind];
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
    amountInput = h("input", {
      type: "number",
      id,
      min: option.min,
      max: option.max,
      step: 1,
      value: option.min,
      inputmode: "numeric",
      class: "amount",
    });
    const unit = game === "teen-patti" || option.kind === "bet" ? "amount" : "to";
    const button = h(
      "button",
      {
        type: "button",
        class: `act act-${option.kind} primary`,
        dataset: { kind: option.kind },
        "aria-keyshortcuts": key ? key.toUpperCase() : null,
      },
      h("span", { class: "label" }),
      key ? h("kbd", {}, key.toUpperCase()) : null,
    );
    const error = h("span", { class: "error small", role: "alert" });
    function current() {
      return Number.parseInt(amountInput.value, 10);
    }
    function update(source) {
      let value = current();
      if (source === slider) {
        value = Number.parseInt(slider.value, 10);
        amountInput.value = String(value);
      } else if (Number.isFinite(value)) {
        slider.value = String(Math.min(option.max, Math.max(option.min, value)));
      }
      const valid = Number.isFinite(value) && value >= option.min && value <= option.max;
      button.disabled = pending || !valid;
      button.querySelector(".label").textContent = t(`act.${option.kind}_${unit}`, {
        amount: formatChips(Number.isFinite(value) ? value : option.min),
      });
      error.textContent = valid
        ? ""
        : t("act.amount_range", { min: formatChips(option.min), max: formatChips(option.max) });
    }
    slider.addEventListener("input", () => update(slider));
    amountInput.addEventListener("input", () => update(amountInput));
    amountInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        if (!button.disabled) button.click();
      }
    });
    button.addEventListener("click", () => {
      const value = current();
      if (Number.isFinite(value) && value >= option.min && value <= option.max) {
        send({ kind: option.kind, amount: value }, button);
      }
    });
    const presets = (option.presets || []).map((preset, index) => {
      const presetButton = h(
        "button",
        {
          type: "button",
          class: "preset ghost small",
          dataset: { preset: preset.name },
          "aria-keyshortcuts": String(index + 1),
        },
        t(`preset.${preset.name}`),
        " ",
        h("kbd", {}, String(index + 1)),
      );
      presetButton.addEventListener("click", () => {
        amountInput.value = String(preset.amount);
        update(amountInput);
        amountInput.focus();
      });
      byKey.set(String(index + 1), presetButton);
      buttons.push(presetButton);
      return presetButton;
    });
    buttons.push(button);
    if (key) byKey.set(key, button);
    sizing.append(
      h("div", { class: "presets" }, presets),
      h(
        "div",
        { class: "amount-row" },
        h("label", { for: id, class: "sr-only" }, t("act.amount")),
        slider,
        amountInput,
        button,
      ),
      error,
    );
    update(amountInput);
  }

  const el = h("div", { class: "actions", role: "group", "aria-label": t("act.your_turn") }, fixed, sized ? sizing : null);

  function key(event) {
    if (pending || event.ctrlKey || event.metaKey || event.altKey) return false;
    const target = event.target;
    const typing =
      target instanceof HTMLTextAreaElement ||
      (target instanceof HTMLInputElement && target.type !== "range" && target.type !== "checkbox");
    if (typing) return false;
    const button = byKey.get(event.key.toLowerCase());
    if (!button || button.disabled) return false;
    event.preventDefault();
    button.click();
    return true;
  }

  return { el, key, focus: () => (buttons.find((b) => !b.disabled) || {}).focus?.() };
}
