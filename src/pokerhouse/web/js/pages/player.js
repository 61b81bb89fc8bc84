// A player's page: anyone's public figures by game (every action they count was taken in
// the open), reached from a leaderboard's names; signed in, the hands played together,
// each opening in the replayer as the reader's own seat saw it.

import { h, replace } from "../dom.js";
import { errorText, when } from "./hands.js";
import { statsPage } from "./stats.js";

export const route = "/players/:name";

export function render(el, params, ctx) {
  const { t } = ctx;
  const name = params.name;
  document.title = `${t("stats.of", { name })} · pokerhouse`;
  const figures = h("div");
  const together = h("section", { "aria-labelledby": "together-title", class: "pages together" });
  replace(el, figures, together);
  const stop = statsPage(figures, t("stats.of", { name }), `/api/players/${encodeURIComponent(name)}/stats`, ctx);
  let alive = true;
  if (ctx.me && ctx.me.username !== name) {
    replace(together, h("h2", { id: "together-title" }, t("together.title")),
      h("p", { class: "hint" }, t("lobby.loading")));
    ctx.api.get(`/api/players/${encodeURIComponent(name)}/hands`).then((body) => {
      if (!alive) return;
      const { formatChips } = ctx;
      if (!body.count) {
        replace(together, h("h2", { id: "together-title" }, t("together.title")),
          h("p", { class: "hint" }, t("together.none")));
        return;
      }
      replace(together, h("h2", { id: "together-title" }, t("together.title")),
        h("p", { class: "hint" }, t("together.count", { count: body.count })),
        h("ul", { class: "together-list", id: "together" }, body.hands.map((hand) =>
          h("li", { dataset: { hand: String(hand.id) } },
            h("a", { href: `#/hands/${hand.id}?n=${hand.number}` },
              t("together.hand", { number: hand.number, game: t(`game.${hand.game}`) })),
            " ", h("span", { class: "hint" }, when(hand.started_at)), " ",
            h("span", { class: hand.result > 0 ? "won" : hand.result < 0 ? "lost" : "" },
              formatChips(hand.result, { signed: true }))))));
    }).catch((error) => {
      if (alive) replace(together, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    });
  }
  return () => {
    alive = false;
    if (stop) stop();
  };
}
