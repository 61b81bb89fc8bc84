// A tournament's table: a strip above the felt with the level, the time to the next one,
// the average stack and the player's place, live from the tournament's messages; and when
// the tournament moves the player to another table, the page follows them there.

import { h, replace } from "../dom.js";
import { levelStakes } from "../pages/tournaments.js";

/** Follow tournament `id` into `strip`; returns the unfollow function. */
export function followTournament(id, strip, ctx) {
  const { t } = ctx;
  let line = null;
  let shownAt = 0;
  let standings = [];

  function draw() {
    if (!line) return;
    const left = line.seconds_left === null
      ? "–"
      : clockText(Math.max(0, line.seconds_left - (performance.now() - shownAt) / 1000));
    const me = ctx.me && standings.find((s) => s.player === ctx.me.username && !s.busted);
    const place = me ? standings.filter((s) => !s.busted).indexOf(me) + 1 : "–";
    const average = standings.length ? ctx.formatChips(averageOf(standings)) : "–";
    replace(strip, h("p", {},
      h("a", { href: `#/tournament/${id}` }, line.name), " · ",
      t("tournaments.level", { level: line.level }), " (", levelStakes(line.game, line.stakes, t), ") · ",
      line.on_break ? t("tournaments.break_left") : t("tournaments.time_left"), " ",
      h("span", { class: "countdown" }, left), " · ",
      t("tournaments.average_stack"), " ", average, " · ",
      t("tournaments.place"), " ", String(place), " / ", String(line.left),
      line.hand_for_hand ? ` · ${t("tournaments.hand_for_hand")}` : ""));
  }

  async function load() {
    try {
      const page = await ctx.api.get(`/api/tournaments/${id}`);
      standings = page.standings;
      line = page;
      shownAt = performance.now();
      draw();
    } catch {
      // The strip stays as it was; the table plays on.
    }
  }

  load();
  const stop = ctx.socket.tournament(id, (message) => {
    line = { ...(line || {}), ...message.line };
    shownAt = performance.now();
    for (const item of message.news) {
      const mine = ctx.me && item.player === ctx.me.username;
      if (mine && item.kind === "moved" && item.table_id) {
        ctx.announce(t("tournaments.news.moved", item));
        ctx.navigate(`/table/${item.table_id}`);
        return;
      }
    }
    if (message.news.length) load();
    else draw();
  });
  const ticker = setInterval(draw, 1000);
  return () => {
    stop();
    clearInterval(ticker);
  };
}

function averageOf(standings) {
  const live = standings.filter((s) => !s.busted);
  return live.length ? Math.floor(live.reduce((sum, s) => sum + s.chips, 0) / live.length) : 0;
}

function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
}
