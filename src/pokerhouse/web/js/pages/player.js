// A player's page: anyone's public figures by game (every action they count was taken in
// the open), reached from a leaderboard's names.

import { statsPage } from "./stats.js";

export const route = "/players/:name";

export function render(el, params, ctx) {
  const { t } = ctx;
  const name = params.name;
  document.title = `${t("stats.of", { name })} · pokerhouse`;
  return statsPage(el, t("stats.of", { name }), `/api/players/${encodeURIComponent(name)}/stats`, ctx);
}
