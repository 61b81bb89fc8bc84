// Which cards make a shown hand: read back from the server's name of it.
//
// The server names every shown hand ("Pair of aces", "Flush, king high",
// "8-6-4-2-A low"); this file finds the cards that name speaks of among the
// seat's cards and the board, so the felt can pick them out. Nothing is
// evaluated here: a name this file cannot read picks out no card.

const RANKS = "23456789TJQKA";
const NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const OF_NAME = new Map(NAMES.map((name, i) => [name, RANKS[i]]));
const OF_PLURAL = new Map(NAMES.map((name, i) => [name === "six" ? "sixes" : `${name}s`, RANKS[i]]));

const rankOf = (code) => code.slice(0, -1).toUpperCase();
const suitOf = (code) => code.slice(-1).toLowerCase();

/** `count` cards of `rank` from `cards` (in order), or null when there are fewer. */
function take(cards, rank, count, used) {
  const found = cards.filter((code) => rankOf(code) === rank && !used.has(code)).slice(0, count);
  if (found.length < count) return null;
  for (const code of found) used.add(code);
  return found;
}

/** One card of each rank of `ranks`, or null when one is missing. */
function each(cards, ranks, used = new Set()) {
  for (const rank of ranks) if (!take(cards, rank, 1, used)) return null;
  return used;
}

/** The five ranks of a straight topped by `top` (the wheel, 5 high, ends with the ace). */
function straightRanks(top) {
  const index = RANKS.indexOf(top);
  if (index === 3) return ["5", "4", "3", "2", "A"];
  if (index < 4) return null;
  return [0, 1, 2, 3, 4].map((step) => RANKS[index - step]);
}

function flushSuit(cards) {
  for (const suit of "shdc") if (cards.filter((code) => suitOf(code) === suit).length >= 5) return suit;
  return null;
}

function byRankDown(a, b) {
  return RANKS.indexOf(rankOf(b)) - RANKS.indexOf(rankOf(a));
}

const FORMS = [
  [/^Royal flush$/, (cards) => suited(cards, ["A", "K", "Q", "J", "T"])],
  [/^Straight flush, (\w+) high$/, (cards, m) => suited(cards, straightRanks(OF_NAME.get(m[1])))],
  [/^Four of a kind, (\w+)$/, (cards, m) => group(cards, [[OF_PLURAL.get(m[1]), 4]])],
  [/^Full house, (\w+) over (\w+)$/, (cards, m) => group(cards, [[OF_PLURAL.get(m[1]), 3], [OF_PLURAL.get(m[2]), 2]])],
  [/^Flush, (\w+) high$/, (cards) => {
    const suit = flushSuit(cards);
    return suit ? new Set(cards.filter((code) => suitOf(code) === suit).sort(byRankDown).slice(0, 5)) : null;
  }],
  [/^Straight, (\w+) high$/, (cards, m) => {
    const ranks = straightRanks(OF_NAME.get(m[1]));
    return ranks ? each(cards, ranks) : null;
  }],
  [/^Three of a kind, (\w+)$/, (cards, m) => group(cards, [[OF_PLURAL.get(m[1]), 3]])],
  [/^Two pair, (\w+) and (\w+)$/, (cards, m) => group(cards, [[OF_PLURAL.get(m[1]), 2], [OF_PLURAL.get(m[2]), 2]])],
  [/^Pair of (\w+)(?:, [2-9TJQKA] kicker)?$/, (cards, m) => group(cards, [[OF_PLURAL.get(m[1]), 2]])],
  [/^High card, ([a-z]+(?:, [a-z]+)*)$/, (cards, m) => each(cards, m[1].split(", ").map((name) => OF_NAME.get(name)))],
  [/^([2-9TJQKA](?:-[2-9TJQKA]){4}) low$/, (cards, m) => each(cards, m[1].split("-"))],
];

function group(cards, wanted) {
  const used = new Set();
  for (const [rank, count] of wanted) if (!rank || !take(cards, rank, count, used)) return null;
  return used;
}

function suited(cards, ranks) {
  if (!ranks) return null;
  const suit = flushSuit(cards);
  if (!suit) return null;
  return each(cards.filter((code) => suitOf(code) === suit), ranks);
}

/**
 * The cards among `cards` (codes: the seat's own, then the board) that make
 * the hand the server named `description`; at Teen Patti every card of the
 * three. An empty set when the name is not one this file reads.
 */
export function winningCards(description, cards, game = "") {
  const known = (cards || []).filter(Boolean);
  if (game === "teen-patti") return new Set(known);
  if (!description) return new Set();
  for (const [pattern, pick] of FORMS) {
    const match = pattern.exec(description);
    if (match) return pick(known, match) || new Set();
  }
  return new Set();
}
