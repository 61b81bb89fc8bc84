// One hand of mine: the step-by-step replayer and the downloads (JSON, PHH for Razz, text).

import { h, replace } from "../dom.js";
import { replayer } from "../replayer.js";
import { errorText } from "./hands.js";

export const route = "/hands/:id";

export function render(el, params, ctx) {
  const { t } = ctx;
  const id = Number(params.id);
  // The address holds the room's id of the hand; people know it by its number at its
  // table ("#41"), which the list passes along (`?n=`) and the hand's document confirms.
  const number = Number(params.query.get("n"));
  const title = Number.isInteger(number) && number > 0 ? t("hands.hand_number_title", { number }) : t("hands.a_hand");
  document.title = `${title} · pokerhouse`;
  const body = h("div", {}, h("p", { class: "hint" }, t("hands.loading")));
  replace(el, h("section", { class: "pages hand-page", "aria-labelledby": "hand-title" },
    h("p", {}, h("a", { href: "#/hands" }, t("hands.back_to_list"))),
    h("h1", { id: "hand-title" }, title), body));
  if (!Number.isInteger(id) || id < 1) {
    replace(body, h("p", { class: "error", role: "alert" }, t("hands.error.unknown_hand")));
    return undefined;
  }
  let alive = true;
  ctx.api.get(`/api/hands/${id}`).then((doc) => {
    if (!alive) return;
    const game = doc.history.game;
    const heading = t("hands.hand_heading", { game: t(`game.${game}`), number: doc.number });
    el.querySelector("#hand-title").textContent = heading;
    document.title = `${heading} · pokerhouse`;
    const start = Number(params.query.get("step") || "0");
    const player = replayer(doc, Number.isFinite(start) ? start : 0);
    replace(body,
      h("p", { class: "hand-facts" },
        doc.you === null ? t("hands.as_spectator") : t("hands.as_player"),
        " ", h("a", { href: `#/rules/${game}` }, t("hands.rules_of", { game: t(`game.${game}`) }))),
      player,
      downloads(doc, t));
    // The analysis comes after: each street's equity for the hands this viewer may see.
    ctx.api.get(`/api/hands/${id}/equity`).then((answer) => {
      if (alive) player.showEquity(answer);
    }).catch((error) => {
      if (alive) player.noEquity(errorText(error, t));
    });
  }).catch((error) => {
    if (alive) replace(body, h("p", { class: "error", role: "alert" }, errorText(error, t)));
  });
  return () => { alive = false; };
}

function downloads(doc, t) {
  const base = `/api/hands/${doc.id}`;
  const file = `hand-${doc.table}-${doc.number}`;
  const links = [
    h("a", { href: base, download: `${file}.json`, class: "button-link" }, t("hands.download_json")),
    doc.history.game === "razz"
      ? h("a", { href: `${base}?format=phh`, download: `${file}.phh`, class: "button-link" }, t("hands.download_phh"))
      : null,
    h("a", { href: `${base}?format=text`, download: `${file}.txt`, class: "button-link" }, t("hands.download_text")),
  ];
  return h("section", { class: "downloads", "aria-labelledby": "downloads-title" },
    h("h2", { id: "downloads-title" }, t("hands.downloads")),
    h("p", { class: "hint" }, t("hands.downloads_note")),
    h("div", { class: "download-links" }, links));
}

