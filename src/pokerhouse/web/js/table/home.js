// A private table's panel above the felt: who hosts it and whether it is paused or closing;
// for the host, the invitation link, Pause/Resume, Close and the guests asking to sit
// (Approve, Deny, Remove); for everyone at it, the session ledger and its CSV.

import { h, replace } from "../dom.js";
import { errorText } from "../pages/hands.js";

const REFRESH_MS = 5000;

/** The invitation link of a token, on this room's address. */
export function inviteLink(token) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(token)}`;
}

/** The key this tab keeps a table's invitation token under (shown to the host when made). */
export function inviteKey(tableId) {
  return `pokerhouse.invite.${tableId}`;
}

/**
 * The panel of private table `tableId`; `send(message)` sends on the socket. Returns
 * `{el, update(home), stop()}`: `update` takes each `home` message.
 */
export function homePanel(tableId, send, ctx) {
  const { t } = ctx;
  const status = h("p", { class: "home-status", role: "status" });
  const hostTools = h("div", { class: "home-host" });
  const ledger = h("div", { class: "home-ledger" });
  const said = h("p", { class: "status-line", role: "status" });
  const el = h("section", { class: "home-panel", "aria-labelledby": `home-title-${tableId}` },
    h("h2", { id: `home-title-${tableId}`, class: "sr-only" }, t("home.panel")),
    status, hostTools, said,
    h("details", { class: "home-ledger-box" },
      h("summary", {}, t("home.ledger")), ledger));
  let home = null;
  let alive = true;
  let timer = null;

  function isHost() {
    return Boolean(home && ctx.me && home.host === ctx.me.username);
  }

  function drawStatus() {
    const parts = [t("home.hosted_by", { host: home.host })];
    if (home.closed) parts.push(t("home.closed"));
    else if (home.closing) parts.push(t("home.closing"));
    else if (home.paused) parts.push(t("home.paused"));
    status.textContent = parts.join(" · ");
    el.dataset.paused = String(home.paused);
    el.dataset.closed = String(home.closed);
  }

  function hostButton(label, op, user = null, extra = {}) {
    const message = { type: "host", table: tableId, op };
    if (user) message.user = user;
    return h("button", { type: "button", class: "small", dataset: { op, user: user || "" }, ...extra,
      onclick: () => {
        if (op === "close" && !window.confirm(t("home.close_confirm"))) return;
        said.textContent = "";
        send(message);
      } }, label);
  }

  const guests = h("ul", { class: "home-guests", id: "home-guests" });
  let guestsShown = "";
  let ledgerShown = "";

  // The link, the buttons and the guests' list, drawn again when the table's state
  // changes; the guests are read again every few seconds and redrawn only if changed
  // (so a button under the keyboard's focus stays where it is).
  function drawHost() {
    if (!isHost() || home.closed) {
      replace(hostTools);
      return;
    }
    const token = sessionStorage.getItem(inviteKey(tableId));
    const link = token
      ? h("input", { id: "invite-link", readonly: true, value: inviteLink(token), "aria-label": t("home.link"),
        onfocus: (event) => event.target.select() })
      : h("span", { class: "hint" }, t("home.link_hidden"));
    const renew = h("button", { type: "button", class: "small", id: "new-link", onclick: async () => {
      try {
        const made = await ctx.api.post(`/api/private-tables/${tableId}/invitation`);
        sessionStorage.setItem(inviteKey(tableId), made.invitation);
        said.textContent = t("home.new_link_made");
        drawHost();
        document.getElementById("invite-link")?.focus();
      } catch (error) {
        said.textContent = errorText(error, t);
      }
    } }, t("home.new_link"));
    guestsShown = "";
    replace(hostTools,
      h("p", { class: "home-link" }, h("label", { for: "invite-link" }, t("home.link")), " ", link, " ", renew),
      h("p", { class: "home-buttons" },
        home.paused ? hostButton(t("home.resume"), "resume") : hostButton(t("home.pause"), "pause"),
        " ", hostButton(t("home.close"), "close")),
      h("h3", {}, t("home.guests")), guests);
    drawGuests();
  }

  async function drawGuests() {
    if (!isHost() || home.closed) return;
    try {
      const state = await ctx.api.get(`/api/private-tables/${tableId}`);
      if (!alive) return;
      const rows = state.guests.filter((guest) => guest.status !== "removed");
      const shown = JSON.stringify(rows);
      if (shown === guestsShown) return;
      guestsShown = shown;
      if (!rows.length) {
        replace(guests, h("li", { class: "hint" }, t("home.no_guests")));
        return;
      }
      replace(guests, rows.map((guest) => h("li", { dataset: { guest: guest.name, status: guest.status } },
        h("span", { class: "name" }, guest.name), " ",
        h("span", { class: "hint" }, t(`home.status.${guest.status}`)), " ",
        guest.status === "asked"
          ? [hostButton(t("home.approve"), "approve", guest.name, { "aria-label": t("home.approve_who", { name: guest.name }) }),
            " ", hostButton(t("home.deny"), "deny", guest.name, { "aria-label": t("home.deny_who", { name: guest.name }) })]
          : hostButton(t("home.remove"), "remove", guest.name, { "aria-label": t("home.remove_who", { name: guest.name }) }))));
    } catch (error) {
      if (alive) replace(guests, h("li", { class: "error" }, errorText(error, t)));
    }
  }

  async function drawLedger() {
    try {
      const body = await ctx.api.get(`/api/private-tables/${tableId}/ledger`);
      if (!alive) return;
      const shown = JSON.stringify(body.players);
      if (shown === ledgerShown) return;
      ledgerShown = shown;
      const { formatChips } = ctx;
      const csv = h("a", { href: `/api/private-tables/${tableId}/ledger?format=csv`, download: `table-${tableId}-ledger.csv`, id: "ledger-csv" }, t("home.csv"));
      if (!body.players.length) {
        replace(ledger, h("p", { class: "hint" }, t("home.ledger_empty")));
        return;
      }
      const heads = ["home.player", "home.buy_in", "home.buy_out", "home.stack", "home.net"];
      replace(ledger,
        h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("home.ledger") },
          h("table", { class: "data", id: "ledger-table" },
            h("caption", { class: "sr-only" }, t("home.ledger")),
            h("thead", {}, h("tr", {}, heads.map((key) => h("th", { scope: "col" }, t(key))))),
            h("tbody", {}, body.players.map((line) => h("tr", { dataset: { player: line.username } },
              h("td", {}, line.username),
              h("td", { class: "num" }, formatChips(line.buy_in)),
              h("td", { class: "num" }, formatChips(line.buy_out)),
              h("td", { class: "num" }, formatChips(line.stack)),
              h("td", { class: `num ${line.net > 0 ? "won" : line.net < 0 ? "lost" : ""}` },
                formatChips(line.net, { signed: true }))))))),
        h("p", {}, csv));
    } catch (error) {
      if (alive) replace(ledger, h("p", { class: "error" }, errorText(error, t)));
    }
  }

  return {
    el,
    update(message) {
      home = message;
      drawStatus();
      drawHost();
      drawLedger();
      if (!timer) {
        timer = setInterval(() => {
          if (!home || home.closed) return;
          drawGuests();
          drawLedger();
        }, REFRESH_MS);
      }
    },
    stop() {
      alive = false;
      clearInterval(timer);
    },
  };
}
