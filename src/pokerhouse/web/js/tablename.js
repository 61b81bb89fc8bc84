// A table's name in the reader's language.
//
// The room names its tables in English, from the game and its stakes ("3x4
// No-Limit, ante 1, bet 2", "Razz 2/4, ante 1"). When a table's name is
// exactly the name its game and spec give, the page says that name again
// from the catalogue (`tablename.*`); any other name (a host's "Friday game")
// is the table's own and is shown as it is, beside the game's title.

import { t } from "./i18n.js";

const LIMITS = { "no-limit": "No-Limit", "pot-limit": "Pot-Limit", "fixed-limit": "Fixed-Limit" };

/** The English name the room gives a table of `game` with `spec`, and the parts to say it again. */
function defaults(game, spec) {
  const limit = spec.limit || "no-limit";
  switch (game) {
    case "3x4":
      return {
        names: [`3x4 ${LIMITS[limit]}, ante ${spec.ante}, bet ${spec.small_bet}`],
        key: "tablename.3x4",
        vars: { limit: t(`limit.${limit}`), ante: spec.ante, bet: spec.small_bet },
      };
    case "razz":
      return {
        names: [`Razz ${spec.small_bet}/${spec.big_bet}, ante ${spec.ante}`],
        key: "tablename.razz",
        vars: { small: spec.small_bet, big: spec.big_bet, ante: spec.ante },
      };
    case "teen-patti":
      return {
        names: [`Teen Patti ${LIMITS[limit]}, ante ${spec.ante}`, `Teen Patti ${LIMITS[limit]}, boot ${spec.ante}`],
        key: "tablename.teen-patti",
        vars: { limit: t(`limit.${limit}`), boot: spec.ante },
      };
    case "casino-holdem": {
      const graded = spec.bonus_pays && spec.bonus_pays.royal_flush === 100;
      return {
        names: [`Casino Hold'em${graded ? " AA 100:1" : ""}, ante ${spec.min_ante} to ${spec.max_ante}`],
        key: graded ? "tablename.casino-holdem-graded" : "tablename.casino-holdem",
        vars: { min: spec.min_ante, max: spec.max_ante },
      };
    }
    default:
      return { names: [], key: "", vars: {} };
  }
}

/**
 * `{name, own}` for a table (a lobby line or a view's `table`: `name`, `game`,
 * `spec`): the name in the reader's language when it is the room's own name
 * for the game and stakes, else the table's name as given (`own: true`).
 */
export function tableName(table) {
  const spec = table.spec || {};
  const made = defaults(table.game, spec);
  if (made.key && made.names.includes(table.name)) return { name: t(made.key, made.vars), own: false };
  return { name: table.name, own: true };
}
