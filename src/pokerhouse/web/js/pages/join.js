// An invitation link (#/join/TOKEN): what it invites to, the password if the table has
// one, and Join; then the table, or a word that the host has yet to approve the seat.

import { h, replace } from "../dom.js";
import { errorText } from "./hands.js";

export const route = "/join/:token";

export function render(el, params, ctx) {
  const { t } = ctx;
  const token = params.token;
  document.title = `${t("join.title")} · pokerhouse`;
  let alive = true;
  const body = h("div", { id: "join-body" }, h("p", { class: "hint" }, t("lobby.loading")));
  replace(el, h("section", { class: "pages join", "aria-labelledby": "join-title" },
    h("h1", { id: "join-title" }, t("join.title")), body));
  const here = `/join/${encodeURIComponent(token)}`;

  // The token goes in the body, never in a URL the room would log.
  ctx.api.post("/api/invitations/look", { token }).then((invite) => {
    if (!alive) return;
    const what = h("p", {}, t("join.invited", { host: invite.host, name: invite.name, game: t(`game.${invite.game}`) }));
    if (invite.closed) {
      replace(body, what, h("p", { class: "error" }, t("error.table_closed")));
      return;
    }
    if (!ctx.me) {
      sessionStorage.setItem("pokerhouse.after_login", here);
      replace(body, what, h("p", {}, h("a", { href: "#/login" }, t("join.sign_in")), " · ",
        h("a", { href: "#/register" }, t("auth.register"))));
      return;
    }
    const status = h("p", { class: "status-line", role: "status", id: "join-status" });
    const password = invite.password
      ? h("input", { id: "join-password", type: "password", required: true, maxlength: "128", autocomplete: "off" })
      : null;
    const form = h("form", { class: "join-form", onsubmit: async (event) => {
      event.preventDefault();
      status.textContent = "";
      try {
        const joined = await ctx.api.post("/api/invitations/join",
          { token, password: password ? password.value : null });
        if (joined.status === "approved") {
          ctx.navigate(`/table/${joined.table}?sit=1`);
          return;
        }
        replace(body, what, h("p", { role: "status", id: "join-asked" }, t("join.asked")),
          h("p", {}, h("a", { href: `#/table/${joined.table}` }, t("join.watch"))));
      } catch (error) {
        status.textContent = errorText(error, t);
      }
    } },
    password ? h("p", { class: "field" }, h("label", { for: "join-password" }, t("join.password")), password) : null,
    invite.approve_seats ? h("p", { class: "hint" }, t("join.approval")) : null,
    h("p", {}, h("button", { type: "submit" }, t("join.join"))),
    status);
    replace(body, what, form);
  }).catch((error) => {
    if (alive) replace(body, h("p", { class: "error", role: "alert" }, errorText(error, t)));
  });
  return () => { alive = false; };
}
