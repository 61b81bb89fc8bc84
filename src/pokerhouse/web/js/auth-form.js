// The register and log-in forms: one shape, clear messages for every refusal.

import { h, replace } from "./dom.js";
import { has } from "./i18n.js";

/** Draw the form for `mode` ("login" or "register") into `el`. */
export function authForm(el, mode, ctx) {
  const { t } = ctx;
  const error = h("p", { class: "error", role: "alert", id: "auth-error" });
  const username = h("input", {
    id: "username",
    name: "username",
    autocomplete: "username",
    required: true,
    minlength: 3,
    maxlength: 20,
    "aria-describedby": "username-help auth-error",
  });
  const password = h("input", {
    id: "password",
    name: "password",
    type: "password",
    autocomplete: mode === "login" ? "current-password" : "new-password",
    required: true,
    "aria-describedby": "auth-error",
  });
  const submit = h("button", { type: "submit", class: "button" }, t(`auth.${mode}`));
  const form = h(
    "form",
    { class: "panel narrow auth", novalidate: true },
    h("h1", {}, t(`auth.${mode}_title`)),
    h("label", { for: "username" }, t("auth.username")),
    username,
    h("p", { class: "help", id: "username-help" }, mode === "register" ? t("auth.username_help") : ""),
    h("label", { for: "password" }, t("auth.password")),
    password,
    mode === "register" ? h("p", { class: "help" }, t("auth.password_help")) : null,
    error,
    submit,
    h(
      "p",
      {},
      mode === "login"
        ? h("a", { href: "#/register" }, t("auth.need_account"))
        : h("a", { href: "#/login" }, t("auth.have_account")),
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!username.value.trim() || !password.value) {
      error.textContent = t("auth.fill_both");
      return;
    }
    submit.disabled = true;
    try {
      await ctx.api.post(`/api/${mode}`, {
        username: username.value.trim(),
        password: password.value,
      });
      await ctx.sessionChanged();
      const back = sessionStorage.getItem("pokerhouse.after_login");
      sessionStorage.removeItem("pokerhouse.after_login");
      ctx.navigate(back || "/");
    } catch (failure) {
      const key = `error.${failure.code}`;
      let text = has(key) ? t(key) : failure.message || t("error.unknown");
      if (failure.code === "rate_limited" && failure.retryAfter) {
        text = t("error.rate_limited_for", { seconds: Number(failure.retryAfter) });
      }
      error.textContent = text;
      submit.disabled = false;
      username.focus();
    }
  });
  replace(el, form);
  username.focus();
}
