// Log in.

import { authForm } from "../auth-form.js";

export const route = "/login";

export function render(el, _params, ctx) {
  authForm(el, "login", ctx);
}
