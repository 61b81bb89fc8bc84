// The decision clock: a ring that empties as the seat's time runs out, then the time bank.

import { h } from "../dom.js";

const SVG = "http://www.w3.org/2000/svg";
const RADIUS = 16;
const LENGTH = 2 * Math.PI * RADIUS;

/**
 * A ring for `clock` ({seat, limit_ms, bank_ms}, received at `since` ms of
 * performance.now()). It redraws itself every animation frame until removed.
 */
export function clockRing(clock, since, t, { large = false } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("aria-hidden", "true");
  const track = document.createElementNS(SVG, "circle");
  const ring = document.createElementNS(SVG, "circle");
  for (const circle of [track, ring]) {
    circle.setAttribute("cx", "20");
    circle.setAttribute("cy", "20");
    circle.setAttribute("r", String(RADIUS));
    circle.setAttribute("fill", "none");
    circle.setAttribute("stroke-width", "4");
  }
  track.setAttribute("class", "track");
  ring.setAttribute("class", "ring");
  ring.setAttribute("stroke-dasharray", String(LENGTH));
  ring.setAttribute("transform", "rotate(-90 20 20)");
  svg.append(track, ring);
  const label = h("span", { class: "clock-text" });
  const el = h("span", { class: large ? "clock large" : "clock", role: "timer" }, svg, label);
  const limit = clock.limit_ms;
  const bank = clock.bank_ms;
  let last = "";
  function draw() {
    if (!el.isConnected && el.dataset.started) return;
    el.dataset.started = "1";
    const spent = performance.now() - since;
    let left;
    let fraction;
    let banked = false;
    if (spent < limit) {
      left = limit - spent;
      fraction = limit > 0 ? left / limit : 0;
    } else {
      banked = true;
      left = Math.max(0, bank - (spent - limit));
      fraction = bank > 0 ? left / bank : 0;
    }
    ring.setAttribute("stroke-dashoffset", String(LENGTH * (1 - fraction)));
    el.classList.toggle("bank", banked);
    el.classList.toggle("urgent", !banked && left < 5000);
    const seconds = Math.ceil(left / 1000);
    const text = banked ? t("clock.bank", { seconds }) : t("clock.seconds", { seconds });
    if (text !== last) {
      label.textContent = text;
      el.setAttribute("aria-label", banked ? t("clock.bank_label", { seconds }) : t("clock.label", { seconds }));
      last = text;
    }
    if (left > 0) requestAnimationFrame(draw);
  }
  draw();
  return el;
}
