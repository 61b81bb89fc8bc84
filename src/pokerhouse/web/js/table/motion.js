// The showdown's motion: the rest of the board dealt, the hands turned up one
// after another, the pots pushed to their winners.
//
// The felt is drawn again whenever anything changes, so each animation is
// given a delay counted from the moment the hand ended: drawn again a second
// later, an animation goes on where it was (or stays finished) instead of
// starting over. With `prefers-reduced-motion` the stylesheet turns every
// one of them off and the finished picture simply appears.

import { h } from "../dom.js";

const DEAL_MS = 220; // between two board cards of the run-out
const TURN_MS = 320; // between two hands turned up
const CARD_MS = 70; // between two cards of one hand
const PUSH_PAUSE_MS = 250; // after the last hand, before the chips move

/** When (ms after the hand ended) each phase starts, for `picture`. */
export function timeline(picture) {
  const revealAt = picture.runOut * DEAL_MS;
  const pushAt = revealAt + picture.reveals * TURN_MS + (picture.reveals ? PUSH_PAUSE_MS : 0);
  return { revealAt, pushAt, done: pushAt + 900 };
}

/** Give the felt's showdown animations their delays, and add the chips moving to each winner. */
export function animate(felt, picture) {
  if (!picture || picture.endedAt === null) return;
  const elapsed = performance.now() - picture.endedAt;
  const { revealAt, pushAt } = timeline(picture);
  const delay = (start) => `${Math.round(start - elapsed)}ms`;
  for (const card of felt.querySelectorAll(".board .card.dealt")) {
    card.style.animationDelay = delay(Number(card.style.getPropertyValue("--k") || 0) * DEAL_MS);
  }
  for (const card of felt.querySelectorAll(".card.revealed")) {
    const order = Number(card.style.getPropertyValue("--i") || 0);
    const position = Number(card.style.getPropertyValue("--j") || 0);
    card.style.animationDelay = delay(revealAt + order * TURN_MS + position * CARD_MS);
  }
  for (const name of felt.querySelectorAll(".shown-name")) {
    name.style.animationDelay = delay(revealAt + Number(name.dataset.order || 0) * TURN_MS + 250);
  }
  for (const said of felt.querySelectorAll(".seat .result, .awards")) {
    said.style.animationDelay = delay(pushAt);
  }
  const from = felt.querySelector(".centre");
  if (!from) return;
  const box = felt.getBoundingClientRect();
  const start = from.getBoundingClientRect();
  const winners = new Set();
  for (const award of picture.awards) for (const seat of award.winners) winners.add(seat);
  for (const [seat, result] of picture.boxes) if (result.net > 0) winners.add(seat);
  for (const seat of winners) {
    const target = felt.querySelector(`.seat[data-seat='${seat}'] .plate`);
    if (!target) continue;
    const end = target.getBoundingClientRect();
    const x = start.left + start.width / 2 - box.left;
    const y = start.top + start.height / 2 - box.top;
    const chips = h("span", { class: "chip-push", "aria-hidden": "true", dataset: { seat } });
    chips.style.left = `${x}px`;
    chips.style.top = `${y}px`;
    chips.style.setProperty("--dx", `${end.left + end.width / 2 - box.left - x}px`);
    chips.style.setProperty("--dy", `${end.top + end.height / 2 - box.top - y}px`);
    chips.style.animationDelay = delay(pushAt);
    felt.append(chips);
  }
}
