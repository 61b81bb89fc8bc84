// Every page of the client, in one list. A page is a module exporting
//   route:  "/table/:id" (the part after "#"; ":name" catches one path segment)
//   render(el, params, ctx): draws into `el`; may return a cleanup function
//   nav (optional): {key: "nav.lobby", order: 10, signedIn: true} for a link in the top bar
// Adding a page is one import and one entry below (see docs/web.md, "Adding a page").

import * as lobby from "./lobby.js";
import * as login from "./login.js";
import * as register from "./register.js";
import * as table from "./table.js";
import * as rules from "./rules.js";
import * as hands from "./hands.js";
import * as hand from "./hand.js";
import * as account from "./account.js";
import * as tournaments from "./tournaments.js";
import * as tournament from "./tournament.js";
import * as bots from "./bots.js";
import * as stats from "./stats.js";
import * as player from "./player.js";
import * as leaders from "./leaders.js";
import * as homegames from "./homegames.js";
import * as join from "./join.js";

export const PAGES = [lobby, login, register, table, rules, hands, hand, account, tournaments, tournament, bots,
  stats, player, leaders, homegames, join];
