// The client's shell: the hash router, the top bar, settings and the connection banner.

import { api } from "./api.js";
import { fourColour, setFourColour } from "./cards.js";
import { h, replace } from "./dom.js";
import {
  formatChips,
  formatNumber,
  language,
  onLanguage,
  preferredLanguage,
  setLanguage,
  t,
} from "./i18n.js";
import { PAGES } from "./pages/index.js";
import { RoomSocket } from "./socket.js";

const view = document.getElementById("view");
const socket = new RoomSocket();
let cleanup = null;
let me = null;

/** What every page gets: the room's API and socket, strings, formats, the user, navigation. */
const ctx = {
  api,
  socket,
  t,
  formatChips,
  formatNumber,
  get me() {
    return me;
  },
  refreshMe,
  navigate,
  announce,
  /** After login or logout: the socket must reconnect to carry the new session. */
  async sessionChanged() {
    await refreshMe();
    socket.restart();
  },
};

function compile(route) {
  const names = [];
  const pattern = route.replace(/:(\w+)/g, (_, name) => {
    names.push(name);
    return "([^/]+)";
  });
  return { regex: new RegExp(`^${pattern}/?$`), names };
}

const routes = PAGES.map((page) => ({ page, ...compile(page.route) }));

function match(whole) {
  const [path, search = ""] = whole.split("?");
  for (const { page, regex, names } of routes) {
    const found = regex.exec(path);
    if (found) {
      // `?sit=1` after a route comes to the page as params.query.
      const params = { query: new URLSearchParams(search) };
      names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1]);
      });
      return { page, params };
    }
  }
  return null;
}

/** Go to `path` ("/table/3"). */
export function navigate(path) {
  if (location.hash === `#${path}`) render();
  else location.hash = `#${path}`;
}

function currentPath() {
  const path = location.hash.replace(/^#/, "") || "/";
  return path.startsWith("/") ? path : `/${path}`;
}

function render() {
  if (cleanup) {
    try {
      cleanup();
    } catch (error) {
      console.error(error);
    }
    cleanup = null;
  }
  const found = match(currentPath());
  view.replaceChildren();
  renderNav();
  if (!found) {
    replace(
      view,
      h(
        "section",
        { class: "panel narrow" },
        h("h1", {}, t("app.not_found")),
        h("p", {}, h("a", { href: "#/" }, t("app.back_to_lobby"))),
      ),
    );
    document.title = `${t("app.not_found")} · pokerhouse`;
    return;
  }
  document.title = "pokerhouse";
  const result = found.page.render(view, found.params, ctx);
  cleanup = typeof result === "function" ? result : null;
}

function renderNav() {
  const nav = document.getElementById("nav");
  const links = PAGES.filter((page) => page.nav && (!page.nav.signedIn || me))
    .sort((a, b) => a.nav.order - b.nav.order)
    .map((page) => {
      const href = `#${page.nav.path || page.route}`;
      const path = currentPath().split("?")[0];
      const here = `#${path}` === href;
      return h("a", { href, "aria-current": here ? "page" : null }, t(page.nav.key));
    });
  replace(nav, links);
  const who = document.getElementById("who");
  if (me) {
    replace(
      who,
      h("span", { class: "user" }, me.username),
      h("span", { class: "wallet", title: t("app.wallet") }, formatChips(me.wallet)),
      h("button", { type: "button", class: "link", onclick: logout }, t("auth.logout")),
    );
  } else {
    replace(
      who,
      h("a", { href: "#/login" }, t("auth.login")),
      h("a", { href: "#/register", class: "button small" }, t("auth.register")),
    );
  }
}

async function logout() {
  try {
    await api.post("/api/logout");
  } finally {
    await ctx.sessionChanged();
    navigate("/");
  }
}

/** Read `/api/me` again (after login, a buy-in...) and redraw the top bar. */
async function refreshMe() {
  try {
    me = await api.me();
  } catch {
    me = null;
  }
  renderNav();
  return me;
}

const announcer = h("div", { class: "sr-only", "aria-live": "polite", id: "announcer" });
document.body.append(announcer);

/** Say `text` to screen readers (a polite live region). */
function announce(text) {
  announcer.textContent = text;
}

function showStatus(state) {
  const banner = document.getElementById("status");
  if (state === "reconnecting") {
    banner.textContent = t("app.reconnecting");
    banner.hidden = false;
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
  document.body.dataset.connection = state;
}

async function start() {
  await setLanguage(preferredLanguage());
  const select = document.getElementById("lang");
  select.value = language();
  select.addEventListener("change", () => setLanguage(select.value));
  const four = document.getElementById("four-colour");
  four.checked = fourColour();
  setFourColour(four.checked);
  four.addEventListener("change", () => setFourColour(four.checked));
  onLanguage(() => {
    select.value = language();
    showStatus(socket.state);
    render();
  });
  socket.onStatus(showStatus);
  await refreshMe();
  socket.connect();
  window.addEventListener("hashchange", render);
  render();
  document.body.dataset.ready = "1";
}

start();
