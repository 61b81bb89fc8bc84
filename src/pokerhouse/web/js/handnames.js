// A hand's name in the reader's language.
//
// The server names hands in English, in the evaluators' fixed wording
// ("Pair of nines, 2 kicker", "8-6-4-2-A low", "Full house, kings over
// fours"), and those names are kept in every hand's log. The client reads
// the wording back into its parts and says it again from the catalogue, where
// each language has the grammar it needs (Russian: "Пара девяток", "до
// восьмёрки"). The English catalogue gives back exactly the server's words;
// a name this file does not know is shown as the server wrote it.

import { t } from "./i18n.js";

const RANKS = "23456789TJQKA";
const NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const RANK_OF_NAME = new Map(NAMES.map((name, i) => [name, RANKS[i]]));
const RANK_OF_PLURAL = new Map(NAMES.map((name, i) => [name === "six" ? "sixes" : `${name}s`, RANKS[i]]));
const COUNTS = { two: 2, three: 3, four: 4 };
const DASHED = "([2-9TJQKA](?:-[2-9TJQKA])*)";

const gen = (rank) => t(`rank.gen.${rank}`);
const plural = (rank) => t(`rank.pl.${rank}`);
const genPlural = (rank) => t(`rank.genpl.${rank}`);
const dashed = (ranks) => ranks.replace(/T/g, t("hand.ten"));
const lowTo = (ranks) => t(`hand.low_to.${ranks[0]}`);

/** "two eights and two fours" in the reader's words, or null. */
function extras(text) {
  const parts = text.split(" and ").map((part) => {
    const [count, name] = part.split(" ");
    const rank = RANK_OF_PLURAL.get(name);
    return COUNTS[count] && rank ? t(`hand.with.${COUNTS[count]}`, { rank: genPlural(rank) }) : null;
  });
  if (parts.includes(null)) return null;
  return parts.reduce((first, second) => t("hand.and", { first, second }));
}

// [pattern, render(match) -> text or null], tried in order.
const FORMS = [
  [/^Royal flush$/, () => t("hand.royal_flush")],
  [/^Straight flush, (\w+) high$/, (m) => named(m[1], (r) => t("hand.straight_flush", { top: gen(r) }))],
  [/^Flush, (\w+) high$/, (m) => named(m[1], (r) => t("hand.flush", { top: gen(r) }))],
  [/^Straight, (\w+) high$/, (m) => named(m[1], (r) => t("hand.straight", { top: gen(r) }))],
  [/^Four of a kind, (\w+)$/, (m) => plurals([m[1]], (r) => t("hand.four_of_a_kind", { rank: genPlural(r) }))],
  [/^Full house, (\w+) over (\w+)$/, (m) => plurals([m[1], m[2]], (a, b) => t("hand.full_house", { three: plural(a), two: plural(b) }))],
  [/^Three of a kind, (\w+)$/, (m) => plurals([m[1]], (r) => t("hand.three_of_a_kind", { rank: genPlural(r) }))],
  [/^Two pair, (\w+) and (\w+)$/, (m) => plurals([m[1], m[2]], (a, b) => t("hand.two_pair", { high: plural(a), low: plural(b) }))],
  [/^Pair of (\w+), ([2-9TJQKA]) kicker$/, (m) => plurals([m[1]], (r) => t("hand.pair_kicker", { rank: genPlural(r), kicker: dashed(m[2]) }))],
  [/^Pair of (\w+)$/, (m) => plurals([m[1]], (r) => t("hand.pair", { rank: genPlural(r) }))],
  [/^Trail of (\w+)$/, (m) => plurals([m[1]], (r) => t("hand.trail", { rank: genPlural(r) }))],
  [new RegExp(`^Pure sequence, ${DASHED}$`), (m) => t("hand.pure_sequence", { ranks: dashed(m[1]) })],
  [new RegExp(`^Sequence, ${DASHED}$`), (m) => t("hand.sequence", { ranks: dashed(m[1]) })],
  [new RegExp(`^Color, ${DASHED}$`), (m) => t("hand.color", { ranks: dashed(m[1]) })],
  [new RegExp(`^High card, ${DASHED}$`), (m) => t("hand.high_cards", { ranks: dashed(m[1]) })],
  [/^High card, ([a-z]+(?:, [a-z]+)*)$/, (m) => highCard(m[1].split(", "))],
  [new RegExp(`^${DASHED} low$`), (m) => t("hand.low", { ranks: dashed(m[1]), to: lowTo(m[1]) })],
  [new RegExp(`^${DASHED} low so far(?:, with (.+))?$`), (m) => lowSoFar(m[1], m[2])],
];

function named(name, render) {
  const rank = RANK_OF_NAME.get(name);
  return rank ? render(rank) : null;
}

function plurals(names, render) {
  const ranks = names.map((name) => RANK_OF_PLURAL.get(name));
  return ranks.every(Boolean) ? render(...ranks) : null;
}

function highCard(names) {
  const ranks = names.map((name) => RANK_OF_NAME.get(name));
  if (!ranks.every(Boolean)) return null;
  return t("hand.high_card", { cards: ranks.map((rank) => t(`rank.${rank}`)).join(", ") });
}

function lowSoFar(ranks, withText) {
  const low = t("hand.low_so_far", { ranks: dashed(ranks), to: lowTo(ranks) });
  if (withText === undefined) return low;
  const extra = extras(withText);
  return extra === null ? null : t("hand.low_so_far_with", { low, extra });
}

/**
 * `description` (the server's English name of a hand) in the reader's language;
 * itself when it is not a name this client knows, or empty.
 */
export function handText(description) {
  if (!description) return description;
  for (const [pattern, render] of FORMS) {
    const match = pattern.exec(description);
    if (match) return render(match) ?? description;
  }
  return description;
}
