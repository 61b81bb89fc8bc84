// The player's table settings, kept in localStorage, and the panel that changes them.
//
// Each is a yes/no: a sound when it is your turn (off), a browser
// notification when it is your turn and the tab is hidden (on, once the
// browser allows it), mucking a losing hand without asking (off), buying in
// again when the stack runs out (off), placing the same Casino Hold'em bets
// every round (off). Folding when checking is free always asks first: that is
// no setting (js/table/actions.js).

import { h } from "../dom.js";

const SETTINGS = {
  sound: { key: "pokerhouse.sound", fallback: false },
  notify: { key: "pokerhouse.notify", fallback: true },
  autoMuck: { key: "pokerhouse.autoMuck", fallback: false },
  autoRebuy: { key: "pokerhouse.autoRebuy", fallback: false },
  repeatBets: { key: "pokerhouse.repeatBets", fallback: false },
};

/** The setting `name` (true or false). */
export function setting(name) {
  const entry = SETTINGS[name];
  const saved = localStorage.getItem(entry.key);
  return saved === null ? entry.fallback : saved === "1";
}

export function setSetting(name, on) {
  localStorage.setItem(SETTINGS[name].key, on ? "1" : "0");
}

/**
 * The settings panel (a disclosure under the action bar) for `game`;
 * `changed(name, on)` runs after a switch is turned.
 */
export function settingsPanel(game, ctx, changed = () => {}) {
  const { t } = ctx;
  const names = ["sound", "notify", "autoRebuy"];
  if (game === "3x4" || game === "razz") names.push("autoMuck");
  if (game === "casino-holdem") names.push("repeatBets");
  const boxes = names.map((name) => {
    const id = `setting-${name}`;
    const box = h("input", { type: "checkbox", id, checked: setting(name), dataset: { setting: name } });
    box.addEventListener("change", () => {
      setSetting(name, box.checked);
      changed(name, box.checked);
    });
    return h("li", {}, h("label", { class: "inline", for: id }, box, " ", t(`settings.${name}`)));
  });
  const open = sessionStorage.getItem("pokerhouse.settingsOpen") === "1";
  const panel = h(
    "details",
    { class: "table-settings", id: "table-settings", open },
    h("summary", {}, t("settings.table")),
    h("ul", { class: "settings-list" }, boxes),
  );
  panel.addEventListener("toggle", () => sessionStorage.setItem("pokerhouse.settingsOpen", panel.open ? "1" : "0"));
  return panel;
}
