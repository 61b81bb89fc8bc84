// Home games: open a private table for friends (any game, stakes from the room's list,
// the host approving seats, a password), and the private tables one hosts or came to.

import { h, replace } from "../dom.js";
import { errorText } from "./hands.js";
import { inviteKey, inviteLink } from "../table/home.js";

export const route = "/home-games";
export const nav = { key: "home.nav", order: 16, signedIn: true };

const SEATS = { "3x4": 6, razz: 8, "teen-patti": 6, "casino-holdem": 7 };

export function render(el, _params, ctx) {
  const { t } = ctx;
  document.title = `${t("home.title")} · pokerhouse`;
  if (!ctx.me) {
    replace(el, h("section", { class: "pages" }, h("h1", {}, t("home.title")),
      h("p", {}, h("a", { href: "#/login" }, t("error.login_required")))));
    return undefined;
  }
  let alive = true;
  const status = h("p", { class: "status-line", role: "status", id: "home-status" });
  const mine = h("div", { id: "my-home-games" }, h("p", { class: "hint" }, t("lobby.loading")));
  const game = h("select", { id: "home-game", name: "game" },
    Object.keys(SEATS).map((name) => h("option", { value: name }, t(`game.${name}`))));
  const stakes = h("select", { id: "home-stakes", name: "stakes" });
  const name = h("input", { id: "home-name", name: "name", required: true, maxlength: "40",
    value: t("home.default_name", { name: ctx.me.username }).slice(0, 40) });
  const seats = h("input", { id: "home-seats", name: "seats", type: "number", min: "2", required: true });
  const bots = h("input", { id: "home-bots", name: "bots", type: "number", min: "0", max: "9", value: "0" });
  const approve = h("input", { id: "home-approve", name: "approve", type: "checkbox" });
  const password = h("input", { id: "home-password", name: "password", type: "password",
    minlength: "4", maxlength: "128", autocomplete: "new-password", "aria-describedby": "home-password-hint" });

  // The room's stakes for each game (GET /api/private-tables/stakes): a host picks one.
  let levels = {};
  function fillStakes() {
    replace(stakes, (levels[game.value] || []).map((level, index) =>
      h("option", { value: String(index) }, t("home.stakes_level", { level: level.name }))));
    seats.max = String(SEATS[game.value]);
    seats.value = String(Math.min(6, SEATS[game.value]));
  }
  game.addEventListener("change", fillStakes);
  ctx.api.get("/api/private-tables/stakes").then((body) => {
    levels = body.games;
    if (alive) fillStakes();
  }).catch((error) => {
    if (alive) status.textContent = errorText(error, t);
  });

  const field = (label, input, hint = null) => h("p", { class: "field" },
    h("label", { for: input.id }, label), input,
    hint ? h("span", { class: "hint", id: `${input.id}-hint` }, hint) : null);
  const form = h("form", { class: "home-form", onsubmit: async (event) => {
    event.preventDefault();
    const level = (levels[game.value] || [])[Number(stakes.value)];
    if (!level) return;
    const body = {
      name: name.value.trim(), game: game.value, options: level.options,
      seats: Number(seats.value), min_buy_in: level.buy_in[0], max_buy_in: level.buy_in[1],
      bots: Number(bots.value), approve_seats: approve.checked,
      password: password.value ? password.value : null,
      max_boxes: game.value === "casino-holdem" ? 3 : 1,
    };
    status.textContent = "";
    try {
      const made = await ctx.api.post("/api/private-tables", body);
      sessionStorage.setItem(inviteKey(made.id), made.invitation);
      ctx.navigate(`/table/${made.id}`);
    } catch (error) {
      status.textContent = errorText(error, t);
    }
  } },
  field(t("home.name"), name),
  field(t("home.game"), game),
  field(t("home.stakes"), stakes),
  field(t("home.seats"), seats),
  field(t("home.bots"), bots, t("home.bots_hint")),
  h("p", { class: "field check" }, approve, h("label", { for: "home-approve" }, t("home.approve_seats"))),
  field(t("home.password"), password, t("home.password_hint")),
  h("p", {}, h("button", { type: "submit" }, t("home.open"))),
  status);

  replace(el, h("section", { class: "pages home-games", "aria-labelledby": "home-title" },
    h("h1", { id: "home-title" }, t("home.title")),
    h("p", { class: "hint" }, t("home.intro")),
    h("section", { "aria-labelledby": "home-mine-title" },
      h("h2", { id: "home-mine-title" }, t("home.mine")), mine),
    h("section", { "aria-labelledby": "home-new-title" },
      h("h2", { id: "home-new-title" }, t("home.new")), form)));

  ctx.api.get("/api/private-tables").then((body) => {
    if (!alive) return;
    if (!body.tables.length) {
      replace(mine, h("p", { class: "hint" }, t("home.none")));
      return;
    }
    replace(mine, h("ul", { class: "home-list" }, body.tables.map((table) => {
      const token = sessionStorage.getItem(inviteKey(table.id));
      return h("li", { dataset: { table: String(table.id) } },
        h("a", { href: `#/table/${table.id}` }, table.name), " ",
        h("span", { class: "hint" }, `${t(`game.${table.game}`)} · ${table.mine ? t("home.yours") : t("home.hosted_by", { host: table.host })}`),
        token && table.mine ? h("span", { class: "hint" }, " · ", inviteLink(token)) : null);
    })));
  }).catch((error) => {
    if (alive) replace(mine, h("p", { class: "error", role: "alert" }, errorText(error, t)));
  });
  return () => { alive = false; };
}
