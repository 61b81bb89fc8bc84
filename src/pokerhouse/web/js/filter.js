// A row of chip buttons choosing one game (or "all"): the lobby's filter, the bots' board.

import { h } from "./dom.js";

/**
 * The buttons for `choices` (game names, or "all"), `current` pressed; `onpick(name)` when
 * one is chosen. `label` names the group for screen readers; `text(name)` is a button's words.
 */
export function gameFilter({ choices, current, label, text, onpick }) {
  const group = h(
    "div",
    { class: "filter", role: "group", "aria-label": label },
    choices.map((name) =>
      h(
        "button",
        {
          type: "button",
          class: "chip-button",
          "aria-pressed": String(name === current),
          dataset: { game: name },
          onclick: () => {
            for (const button of group.querySelectorAll("button")) {
              button.setAttribute("aria-pressed", String(button.dataset.game === name));
            }
            onpick(name);
          },
        },
        text(name),
      ),
    ),
  );
  return group;
}
