// Playing cards drawn in HTML and CSS, each with its name for screen readers.
//
// A card is the server's text ("As", "Td"), or null for a card the viewer
// may not see (drawn as a back). The four-colour deck (spades black, hearts
// red, diamonds blue, clubs green) is a setting remembered in localStorage;
// the suit symbol and the name always say the suit too, so colour is never
// the only cue.

import { t } from "./i18n.js";

const FOUR_COLOUR_KEY = "pokerhouse.fourColour";
const SUIT_SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANKS = "23456789TJQKA";

export function fourColour() {
  return localStorage.getItem(FOUR_COLOUR_KEY) === "1";
}

/** Turn the four-colour deck on or off (remembered), restyling every card on the page. */
export function setFourColour(on) {
  localStorage.setItem(FOUR_COLOUR_KEY, on ? "1" : "0");
  document.body.classList.toggle("four-colour", on);
}

/** "ace of spades" / "туз пик"; "face-down card" for null. */
export function cardName(code) {
  if (!code) return t("card.back");
  const rank = code.slice(0, -1).toUpperCase();
  const suit = code.slice(-1).toLowerCase();
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** Several cards' names joined for one label ("ace of spades, king of hearts"). */
export function cardsName(codes) {
  return codes.map(cardName).join(", ");
}

/**
 * One card element. `options.up`: the card is face up for everyone (stud up
 * cards), marked so the viewer can tell up from down; `options.small`: a
 * smaller card (the board of a mini view, the dealer's row).
 */
export function cardElement(code, options = {}) {
  const el = document.createElement("span");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  el.className = "card";
  if (options.small) el.classList.add("small");
  if (!code) {
    el.classList.add("back");
    return el;
  }
  const rank = code.slice(0, -1).toUpperCase();
  const suit = code.slice(-1).toLowerCase();
  if (!RANKS.includes(rank) || !(suit in SUIT_SYMBOLS)) {
    el.classList.add("back");
    return el;
  }
  el.classList.add(`suit-${suit}`);
  if (options.up === false) el.classList.add("down");
  if (options.up === true) {
    // Stud's up cards: raised on the felt, and said so, since position alone is no cue.
    el.classList.add("up");
    el.setAttribute("aria-label", t("card.face_up", { card: cardName(code) }));
  }
  el.dataset.card = code;
  const shown = rank === "T" ? "10" : rank;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.append(span("rank", shown), span("pip", SUIT_SYMBOLS[suit]));
  const centre = span("centre", SUIT_SYMBOLS[suit]);
  centre.setAttribute("aria-hidden", "true");
  el.append(corner, centre);
  return el;
}

/** A row of cards in one element, with an optional label for the whole row. */
export function cardRow(codes, options = {}) {
  const row = document.createElement("span");
  row.className = "cards";
  codes.forEach((code, index) => {
    const up = options.faceUp ? Boolean(options.faceUp[index]) : undefined;
    row.append(cardElement(code, { ...options, up }));
  });
  return row;
}

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  el.textContent = text;
  return el;
}
