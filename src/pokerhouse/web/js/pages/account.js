// My account: the balance, the ledger statement (paged, older lines on demand)
// and a bankroll chart (inline SVG, drawn here, no library) with its text alternative.

import { h, replace } from "../dom.js";
import { has } from "../i18n.js";
import { olderList } from "../older.js";
import { errorText, when } from "./hands.js";

export const route = "/account";
export const nav = { key: "account.nav", order: 50, signedIn: true };

const PAGE_SIZE = 25;
const SVG = "http://www.w3.org/2000/svg";

export function render(el, params, ctx) {
  const { t } = ctx;
  document.title = `${t("account.title")} · pokerhouse`;
  if (!ctx.me) {
    replace(el, h("section", { class: "pages" }, h("h1", {}, t("account.title")),
      h("p", {}, h("a", { href: "#/login" }, t("error.login_required")))));
    return undefined;
  }
  const body = h("div", {}, h("p", { class: "hint" }, t("account.loading")));
  replace(el, h("section", { class: "pages account", "aria-labelledby": "account-title" },
    h("h1", { id: "account-title" }, t("account.title")), body));
  let alive = true;
  Promise.all([
    ctx.api.get("/api/me"),
    ctx.api.get("/api/me/ledger"),
    ctx.api.get("/api/tables").catch(() => ({ tables: [] })),
  ])
    .then(([me, ledger, lobby]) => {
      if (!alive) return;
      const page = Number(params.query.get("page") || "1");
      let drawn = chart(ledger.lines, ctx);
      replace(body,
        balance(me, new Map(lobby.tables.map((table) => [table.id, table.name])), ctx),
        drawn,
        h("section", { "aria-labelledby": "statement-title" },
          h("h2", { id: "statement-title" }, t("account.statement")),
          ledger.lines.length
            ? olderList({
              items: [...ledger.lines].reverse(), next: ledger.next, size: PAGE_SIZE, page, t,
              label: t("account.statement_pages"),
              more: t("account.show_older"),
              shown: (count, total) => t("account.older_shown", { count, total }),
              failed: (error) => errorText(error, t),
              onpage: (n) => ctx.navigate(`/account?page=${n}`),
              draw: (slice) => statement(slice, ctx),
              fetchOlder: async (before) => {
                const older = await ctx.api.get(`/api/me/ledger?before=${encodeURIComponent(before)}`);
                return { items: [...older.lines].reverse(), next: older.next };
              },
              // The chart follows the statement back in time (it wants the oldest first).
              onchange: (items) => {
                const redrawn = chart([...items].reverse(), ctx);
                drawn.replaceWith(redrawn);
                drawn = redrawn;
              },
            })
            : h("p", {}, t("account.no_lines"))));
    })
    .catch((error) => {
      if (alive) replace(body, h("p", { class: "error", role: "alert" }, errorText(error, t)));
    });
  return () => { alive = false; };
}

function balance(me, tableNames, ctx) {
  const { t, formatChips } = ctx;
  const message = h("p", { class: "top-up-message", role: "status" });
  const topUp = h("button", {
    type: "button", class: "secondary",
    onclick: async () => {
      topUp.disabled = true;
      try {
        await ctx.api.post("/api/me/top-up");
        await ctx.refreshMe();
        ctx.navigate("/account");
      } catch (error) {
        const key = `account.top_up_${error.code}`;
        message.textContent = has(key) ? t(key) : errorText(error, t);
        topUp.disabled = false;
      }
    },
  }, t("account.top_up"));
  return h("section", { class: "balance", "aria-labelledby": "balance-title" },
    h("h2", { id: "balance-title" }, t("account.balance")),
    h("dl", { class: "figures" },
      h("div", {}, h("dt", {}, t("account.wallet")), h("dd", { dataset: { figure: "wallet" } }, formatChips(me.wallet))),
      h("div", {}, h("dt", {}, t("account.in_play")), h("dd", { dataset: { figure: "in_play" } }, formatChips(me.in_play))),
      h("div", {}, h("dt", {}, t("account.total")), h("dd", { dataset: { figure: "total" } }, formatChips(me.wallet + me.in_play)))),
    me.seats.length
      ? h("ul", { class: "seats" }, me.seats.map((seat) =>
        h("li", {}, h("a", { href: `#/table/${seat.table}` }, t("account.seat_at", {
          table: tableNames.get(seat.table) || seat.table, seat: seat.seat + 1, stack: formatChips(seat.stack),
        })))))
      : null,
    h("p", { class: "hint" }, t("account.top_up_help")), topUp, message);
}

function statement(lines, ctx) {
  const { t, formatChips } = ctx;
  // On a narrow screen the table scrolls inside its own box (focusable, so the keyboard can scroll it).
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("account.statement") },
    h("table", { class: "data statement" },
    h("caption", { class: "sr-only" }, t("account.statement")),
    h("thead", {}, h("tr", {}, ["account.when", "account.kind", "account.memo", "account.amount", "account.after"]
      .map((key) => h("th", { scope: "col", class: key.endsWith("amount") || key.endsWith("after") ? "num" : null }, t(key))))),
    h("tbody", {}, lines.map((line) => {
      const kind = has(`account.kind.${line.kind}`) ? t(`account.kind.${line.kind}`) : line.kind;
      return h("tr", { dataset: { transaction: String(line.transaction) } },
        h("td", {}, when(line.at)),
        h("td", {}, kind),
        h("td", {}, line.memo),
        h("td", { class: `num ${line.amount > 0 ? "won" : line.amount < 0 ? "lost" : ""}` },
          formatChips(line.amount, { signed: true })),
        h("td", { class: "num" }, formatChips(line.balance)));
    }))));
}

/** The wallet's balance over time as a line, with a summary in words for everyone. */
function chart(lines, ctx) {
  const { t, formatChips } = ctx;
  const section = h("section", { class: "bankroll", "aria-labelledby": "chart-title" },
    h("h2", { id: "chart-title" }, t("account.chart")));
  if (!lines.length) {
    section.append(h("p", {}, t("account.no_lines")));
    return section;
  }
  // The balance after each line (a single line draws a level line to itself).
  const points = lines.map((line) => ({ at: line.at, balance: line.balance }));
  if (points.length === 1) points.push({ ...points[0] });
  const balances = points.map((p) => p.balance);
  const low = Math.min(...balances);
  const high = Math.max(...balances);
  const summary = t("account.chart_summary", {
    count: lines.length,
    from: formatChips(points[0].balance),
    to: formatChips(points[points.length - 1].balance),
    low: formatChips(low),
    high: formatChips(high),
    start: when(points[0].at),
    end: when(points[points.length - 1].at),
  });
  const width = 640;
  const height = 220;
  const pad = { left: 64, right: 12, top: 12, bottom: 28 };
  const span = points[points.length - 1].at - points[0].at;
  // By time when the moves are spread out; evenly when they all fall in one moment.
  const x = (p, i) => pad.left + (width - pad.left - pad.right) *
    (span > 0 ? (p.at - points[0].at) / span : i / Math.max(1, points.length - 1));
  const range = high - low || 1;
  const y = (value) => pad.top + (height - pad.top - pad.bottom) * (1 - (value - low) / range);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(p, i).toFixed(1)},${y(p.balance).toFixed(1)}`).join(" ");
  const svg = svgEl("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-labelledby": "chart-svg-title chart-svg-desc",
  });
  const title = svgEl("title", { id: "chart-svg-title" });
  title.textContent = t("account.chart");
  const desc = svgEl("desc", { id: "chart-svg-desc" });
  desc.textContent = summary;
  svg.append(title, desc);
  for (const value of high === low ? [high] : [low, (low + high) / 2, high]) {
    svg.append(svgEl("line", { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: "grid" }));
    const label = svgEl("text", { x: pad.left - 6, y: y(value) + 4, "text-anchor": "end", class: "axis" });
    label.textContent = formatChips(Math.round(value));
    svg.append(label);
  }
  for (const [p, anchor] of [[points[0], "start"], [points[points.length - 1], "end"]]) {
    const label = svgEl("text", { x: anchor === "start" ? pad.left : width - pad.right, y: height - 8, "text-anchor": anchor, class: "axis" });
    label.textContent = when(p.at);
    svg.append(label);
  }
  svg.append(svgEl("path", { d: path, class: "line" }));
  const lastPoint = points[points.length - 1];
  svg.append(svgEl("circle", { cx: x(lastPoint, points.length - 1), cy: y(lastPoint.balance), r: 4, class: "dot" }));
  section.append(h("figure", {}, svg, h("figcaption", { id: "chart-summary" }, summary)));
  return section;
}

function svgEl(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}
