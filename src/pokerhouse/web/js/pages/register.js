// Open an account (10,000 play-money chips).

import { authForm } from "../auth-form.js";

export const route = "/register";

export function render(el, _params, ctx) {
  authForm(el, "register", ctx);
}
