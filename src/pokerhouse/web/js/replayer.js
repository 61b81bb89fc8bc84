// The hand replayer: a hand's recorded events, one step at a time.
//
// The history is the server's copy for this viewer (`GET /api/hands/{id}`):
// the events in hand seats, with null for every card the viewer was not
// shown. `steps()` turns it into one table picture per event, applying only
// what each event says (chips moved, cards dealt or shown): no rule of a game
// is worked out here. `Replayer` draws a step and moves with the buttons or
// the keyboard (arrows, Home, End).

import { h, replace } from "./dom.js";
import { cardRow, cardsName } from "./cards.js";
import { handText } from "./handnames.js";
import { t, formatChips, formatNumber } from "./i18n.js";

const DEALER = -1;

/** A hand's equity at a street: the share in words and as a bar. */
function equityBar(hand, street) {
  const share = Math.max(0, Math.min(1, hand.equity));
  const words = t(hand.known ? "hands.equity_seat" : "hands.equity_seat_unknown", { share: percent(share), street: streetName(street.street) });
  return h("div", { class: "seat-equity", dataset: { equity: String(hand.equity) } },
    h("span", { class: "equity-words" }, words),
    h("span", { class: "equity-bar", "aria-hidden": "true" }, h("span", { style: `width:${(share * 100).toFixed(1)}%` })));
}

/** The seat's name in the hand: the player's, "Dealer" for the house, "Seat N" otherwise. */
function nameOf(doc, seat) {
  if (seat === DEALER) return t("hands.dealer");
  const player = doc.players.find((p) => p.hand_seat === seat);
  return player ? player.name : t("hands.seat", { seat: seat + 1 });
}

function initialState(doc) {
  const history = doc.history;
  return {
    street: null,
    board: [],
    pot: 0,
    // Teen Patti's current stake starts at the ante; the events raise it.
    stake: history.game === "teen-patti" ? history.spec.ante : null,
    dealer: { cards: [], description: "" },
    seats: history.starting_stacks.map((stack, seat) => ({
      seat,
      name: nameOf(doc, seat),
      tableSeat: (doc.players.find((p) => p.hand_seat === seat) || { table_seat: seat }).table_seat,
      you: (doc.yours || [doc.you]).includes(seat),
      bot: Boolean((doc.players.find((p) => p.hand_seat === seat) || {}).bot),
      stack,
      bet: 0,
      cards: [],
      faceUp: [],
      folded: false,
      allIn: false,
      seen: false,
      shown: "",
      net: null,
    })),
  };
}

function clone(state) {
  return {
    ...state,
    board: [...state.board],
    dealer: { ...state.dealer, cards: [...state.dealer.cards] },
    seats: state.seats.map((s) => ({ ...s, cards: [...s.cards], faceUp: [...s.faceUp] })),
  };
}

/** Fill a seat's unknown cards from cards it showed (in deal order). */
function reveal(cards, shown) {
  if (cards.length !== shown.length) return [...shown];
  return cards.map((card, index) => card || shown[index]);
}

function cardsText(cards) {
  const known = cards.filter(Boolean);
  const hidden = cards.length - known.length;
  const parts = [];
  if (known.length) parts.push(cardsName(known));
  if (hidden) parts.push(t("hands.face_down", { count: hidden }));
  return parts.join("; ");
}

function actionText(game, name, event) {
  const kind = event.action.kind;
  // A bet at Teen Patti is the chips put in; elsewhere bets and raises are "to" a total.
  const amount = kind === "call" || kind === "bring_in" || kind === "show" || kind === "sideshow"
    ? event.added
    : game === "teen-patti" ? event.added : event.total;
  const key = `hands.act.${kind}`;
  const text = t(key, { name, amount: formatChips(amount) });
  const said = text === key ? t("hands.act.other", { name, kind }) : text;
  return event.all_in ? `${said} ${t("hands.all_in")}` : said;
}

/** Apply one event to a copy of `state`; returns [state, description]. */
function apply(doc, state, event) {
  const next = clone(state);
  const game = doc.history.game;
  const seat = typeof event.seat === "number" ? event.seat : null;
  const s = seat !== null && seat >= 0 ? next.seats[seat] : null;
  const name = seat !== null ? nameOf(doc, seat) : "";
  switch (event.type) {
    case "hand_started":
      return [next, t("hands.ev.hand_started", { number: doc.number, count: next.seats.length })];
    case "ante_posted":
      s.stack -= event.amount;
      next.pot += event.amount;
      return [next, t("hands.ev.ante_posted", { name, amount: formatChips(event.amount) })];
    case "bonus_posted":
      s.stack -= event.amount;
      return [next, t("hands.ev.bonus_posted", { name, amount: formatChips(event.amount) })];
    case "street_started": {
      next.street = event.street;
      for (const each of next.seats) each.bet = 0;
      const key = `hands.street.${event.street}`;
      const street = t(key) === key ? event.street : t(key);
      return [next, t("hands.ev.street_started", { street })];
    }
    case "cards_dealt":
      if (s) {
        s.cards.push(...event.cards);
        s.faceUp.push(...event.face_up);
      } else if (seat === DEALER) {
        next.dealer.cards.push(...event.cards);
      }
      return [next, t("hands.ev.cards_dealt", { name, cards: cardsText(event.cards) })];
    case "board_dealt":
      next.board.push(...event.cards);
      return [next, t("hands.ev.board_dealt", { cards: cardsText(event.cards) })];
    case "card_burned":
      return [next, t("hands.ev.card_burned")];
    case "deck_reshuffled":
      return [next, t("hands.ev.deck_reshuffled")];
    case "action_taken":
      s.stack -= event.added;
      s.bet = event.total;
      next.pot += event.added;
      if (event.action.kind === "fold") s.folded = true;
      if (event.all_in) s.allIn = true;
      return [next, actionText(game, name, event)];
    case "bet_returned":
      s.stack += event.amount;
      s.bet -= event.amount;
      next.pot -= event.amount;
      return [next, t("hands.ev.bet_returned", { name, amount: formatChips(event.amount) })];
    case "cards_looked":
      if (s) s.seen = true;
      if (s && event.cards) s.cards = reveal(s.cards, event.cards);
      return [next, t("hands.ev.cards_looked", { name })];
    case "stake_raised":
      next.stake = event.stake;
      return [next, t("hands.ev.stake_raised", { stake: formatChips(event.stake) })];
    case "sideshow_compared": {
      for (const [who, cards] of [[event.asker, event.asker_cards], [event.target, event.target_cards]]) {
        if (cards && cards.some(Boolean)) next.seats[who].cards = reveal(next.seats[who].cards, cards);
      }
      next.seats[event.loser].folded = true;
      return [next, t("hands.ev.sideshow_compared", {
        asker: nameOf(doc, event.asker),
        target: nameOf(doc, event.target),
        loser: nameOf(doc, event.loser),
      })];
    }
    case "hand_shown":
      if (seat === DEALER) {
        next.dealer.cards = reveal(next.dealer.cards, event.cards);
        next.dealer.description = handText(event.description);
      } else {
        s.cards = reveal(s.cards, event.cards);
        s.faceUp = s.cards.map(() => true);
        s.shown = handText(event.description);
      }
      return [next, t("hands.ev.hand_shown", { name, cards: cardsText(event.cards), hand: handText(event.description) })];
    case "hand_mucked":
      return [next, t("hands.ev.hand_mucked", { name })];
    case "pot_awarded": {
      next.pot = Math.max(0, next.pot - event.amount);
      event.winners.forEach((winner, index) => {
        if (winner >= 0) next.seats[winner].stack += event.shares[index];
      });
      const winners = event.winners.map((w) => nameOf(doc, w)).join(", ");
      const pot = event.pot === 0 ? t("hands.main_pot") : t("hands.side_pot", { number: event.pot });
      const text = t("hands.ev.pot_awarded", { winners, amount: formatChips(event.amount), pot });
      return [next, event.description ? `${text} (${handText(event.description)})` : text];
    }
    case "bonus_settled":
      return [next, event.won
        ? t("hands.ev.bonus_won", { name, amount: formatChips(event.paid), hand: handText(event.description) })
        : t("hands.ev.bonus_lost", { name, amount: formatChips(event.stake) })];
    case "bonus_result": // another's box: the chips only, never its hand
      return [next, event.net > 0
        ? t("hands.ev.bonus_won_unseen", { name, amount: formatChips(event.net) })
        : t("hands.ev.bonus_lost", { name, amount: formatChips(event.stake) })];
    case "dealer_qualified":
      return [next, t(event.qualifies ? "hands.ev.dealer_qualifies" : "hands.ev.dealer_not_qualified", {
        hand: handText(event.description),
      })];
    case "box_settled": {
      const key = `hands.outcome.${event.outcome}`;
      const outcome = t(key) === key ? event.outcome : t(key);
      return [next, t("hands.ev.box_settled", {
        name, outcome, net: formatChips(event.net, { signed: true }),
      })];
    }
    case "house_settled":
      return [next, t("hands.ev.house_settled", { amount: formatChips(event.result, { signed: true }) })];
    case "rake_taken":
      return [next, t("hands.ev.rake_taken", { amount: formatChips(event.amount) })];
    case "hand_voided":
      return [next, t("hands.ev.hand_voided")];
    case "hand_ended":
      event.net.forEach((net, index) => {
        next.seats[index].net = net;
        next.seats[index].stack = event.stacks[index];
        next.seats[index].bet = 0;
      });
      next.pot = 0;
      return [next, t("hands.ev.hand_ended")];
    default:
      return [next, t("hands.ev.other", { type: event.type })];
  }
}

/** One `{state, text}` per event of the history, in order. */
export function steps(doc) {
  let state = initialState(doc);
  const result = [];
  for (const event of doc.history.events) {
    const [next, text] = apply(doc, state, event);
    state = next;
    result.push({ state, text, type: event.type });
  }
  return result;
}

/**
 * Which equity street a step of the replayer is in: the last street whose
 * cards are out by then (the board at 3x4 and Casino Hold'em, each player's
 * cards at Razz and Teen Patti), or null before the deal.
 */
export function streetAt(game, state, streets) {
  if (!streets || !streets.length) return null;
  const dealt = Math.max(0, ...state.seats.map((s) => s.cards.length));
  if (!dealt) return null;
  const boardGame = game === "3x4" || game === "casino-holdem";
  const measure = boardGame ? state.board.length : dealt;
  let found = null;
  for (const street of streets) {
    const size = boardGame ? street.board.length : Math.max(...street.hands.map((hand) => hand.cards.length));
    if (size <= measure) found = street;
  }
  return found;
}

/** A share as a percentage in the reader's locale ("62%"; "< 1%" for a sliver above nothing). */
function percent(share) {
  if (share > 0 && share < 0.005) return t("hands.equity_sliver");
  if (share < 1 && share > 0.995) return t("hands.equity_nearly");
  return formatNumber(share, { style: "percent", maximumFractionDigits: 0 });
}

/** The replayer's element for a hand document; `start` is the first step shown. */
export function replayer(doc, start = 0) {
  const all = steps(doc);
  let index = Math.min(Math.max(0, start), all.length - 1);
  let equity = null; // the server's equity answer, once it comes
  const table = h("div", { class: "replay-table" });
  const analysis = h("section", { class: "replay-equity", "aria-labelledby": "equity-title", hidden: true });
  const said = h("p", { class: "replay-said", "aria-live": "polite", "aria-atomic": "true" });
  const counter = h("span", { class: "replay-counter" });
  const log = h("ol", { class: "replay-log", "aria-label": t("hands.log") });
  const button = (key, label, move) =>
    h("button", {
      type: "button", class: "replay-button", "aria-label": t(label), "aria-keyshortcuts": key.shortcut,
      title: `${t(label)} (${key.hint})`, onclick: () => go(move()),
    }, key.symbol);
  const first = button({ symbol: "⇤", shortcut: "Home", hint: "Home" }, "hands.first", () => 0);
  const back = button({ symbol: "◀", shortcut: "ArrowLeft", hint: "←" }, "hands.back", () => index - 1);
  const forward = button({ symbol: "▶", shortcut: "ArrowRight", hint: "→" }, "hands.forward", () => index + 1);
  const last = button({ symbol: "⇥", shortcut: "End", hint: "End" }, "hands.last", () => all.length - 1);
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("hands.controls") },
    first, back, counter, forward, last);
  const root = h("section", {
    class: "replayer", tabindex: "0", "aria-label": t("hands.replayer"),
    "aria-describedby": "replay-keys",
    onkeydown: (event) => {
      const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: all.length - 1 };
      if (event.key in moves && !event.altKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        go(moves[event.key]);
      }
    },
  }, controls, h("p", { class: "hint", id: "replay-keys" }, t("hands.keys")), said, table, analysis, log);

  all.forEach((step, i) => {
    log.append(h("li", {}, h("button", {
      type: "button", class: "log-step", dataset: { step: String(i) }, onclick: () => go(i),
    }, step.text)));
  });

  function go(to) {
    index = Math.min(Math.max(0, to), all.length - 1);
    draw();
  }

  function draw() {
    const step = all[index];
    counter.textContent = t("hands.step", { step: index + 1, count: all.length });
    said.textContent = step.text;
    first.disabled = back.disabled = index === 0;
    forward.disabled = last.disabled = index === all.length - 1;
    root.dataset.step = String(index);
    for (const item of log.querySelectorAll(".log-step")) {
      const here = Number(item.dataset.step) === index;
      item.classList.toggle("current", here);
      if (here) {
        item.setAttribute("aria-current", "step");
        // Keep the current step in sight inside the log's own scroll box (not the page's).
        const top = item.offsetTop - log.offsetTop;
        if (top < log.scrollTop || top + item.offsetHeight > log.scrollTop + log.clientHeight) {
          log.scrollTop = Math.max(0, top - log.clientHeight / 2);
        }
      } else {
        item.removeAttribute("aria-current");
      }
    }
    const street = equity ? streetAt(doc.history.game, step.state, equity.streets) : null;
    replace(table, drawTable(doc, step.state, street));
    if (equity) drawAnalysis(street);
  }

  /** The analysis under the table: each street's equities as a chart and as a table. */
  function drawAnalysis(current) {
    analysis.hidden = false;
    replace(analysis, h("h2", { id: "equity-title" }, t("hands.equity_title")),
      h("p", { class: "hint" }, t(doc.history.game === "casino-holdem" ? "hands.equity_note_casino" : "hands.equity_note")),
      equityChart(doc, equity, current), equityTable(doc, equity, current));
  }

  /** Show the server's equity answer (`GET /api/hands/{id}/equity`) with the steps. */
  root.showEquity = (answer) => {
    equity = answer;
    draw();
  };
  /** Say the analysis could not be had (the page still replays). */
  root.noEquity = (text) => {
    analysis.hidden = false;
    replace(analysis, h("h2", { id: "equity-title" }, t("hands.equity_title")), h("p", { class: "hint" }, text));
  };

  draw();
  return root;
}

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#e2b33c", "#7fb3ff", "#8ef59b", "#ff8a80", "#d59cff", "#7fe7e0", "#ffcc80", "#c5e1a5", "#f48fb1", "#b0bec5"];

function svg(tag, attributes = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child);
  return el;
}

/** Every hand seat that has an equity on some street, in seat order. */
function charted(equity) {
  const seats = new Set();
  for (const street of equity.streets) for (const hand of street.hands) seats.add(hand.hand_seat);
  return [...seats].sort((a, b) => a - b);
}

function streetName(street) {
  const key = `hands.street.${street}`;
  return t(key) === key ? street : t(key);
}

/** A line per hand across the streets (0 to 100%), the current street marked. */
function equityChart(doc, equity, current) {
  const streets = equity.streets;
  const seats = charted(equity);
  const width = 320;
  const height = 120;
  const pad = 24;
  const x = (i) => (streets.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (streets.length - 1));
  const y = (share) => height - pad / 2 - share * (height - pad);
  const title = t("hands.equity_chart");
  const summary = streets.map((street) => `${streetName(street.street)}: ${street.hands.map((hand) => `${nameOf(doc, hand.hand_seat)} ${percent(hand.equity)}`).join(", ")}`).join("; ");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "equity-chart-title equity-chart-desc", class: "equity-chart" },
    svg("title", { id: "equity-chart-title" }), svg("desc", { id: "equity-chart-desc" }));
  chart.querySelector("title").textContent = title;
  chart.querySelector("desc").textContent = summary;
  for (const share of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: pad, x2: width - pad, y1: y(share), y2: y(share), class: "grid" }));
  }
  streets.forEach((street, i) => {
    const label = svg("text", { x: x(i), y: height - 1, "text-anchor": "middle", class: "axis" });
    label.textContent = streetName(street.street);
    chart.append(label);
    if (current && street === current) {
      chart.append(svg("line", { x1: x(i), x2: x(i), y1: 4, y2: height - pad / 2, class: "now" }));
    }
  });
  seats.forEach((seat, k) => {
    const points = [];
    streets.forEach((street, i) => {
      const hand = street.hands.find((one) => one.hand_seat === seat);
      if (hand) points.push(`${x(i)},${y(hand.equity)}`);
    });
    const colour = COLOURS[k % COLOURS.length];
    chart.append(svg("polyline", { points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 2.5 }));
    for (const point of points) {
      const [px, py] = point.split(",");
      chart.append(svg("circle", { cx: px, cy: py, r: 3, fill: colour }));
    }
  });
  const legend = h("ul", { class: "equity-legend" }, seats.map((seat, k) =>
    h("li", {}, h("span", { class: "swatch", style: `background:${COLOURS[k % COLOURS.length]}` }), nameOf(doc, seat))));
  return h("figure", { class: "equity-figure" }, chart, legend);
}

/** The same figures as a table: a street a row, a hand a column. */
function equityTable(doc, equity, current) {
  const seats = charted(equity);
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("hands.equity_table") },
    h("table", { class: "data equity-table" },
      h("caption", { class: "sr-only" }, t("hands.equity_table")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("hands.equity_street")),
        seats.map((seat) => h("th", { scope: "col" }, nameOf(doc, seat))),
        h("th", { scope: "col" }, t("hands.equity_how")))),
      h("tbody", {}, equity.streets.map((street) => h("tr", { class: street === current ? "current" : "", "aria-current": street === current ? "step" : null },
        h("th", { scope: "row" }, streetName(street.street)),
        seats.map((seat) => {
          const hand = street.hands.find((one) => one.hand_seat === seat);
          return h("td", { class: "num" }, hand ? percent(hand.equity) : "—");
        }),
        h("td", {}, street.method === "exact"
          ? t("hands.equity_exact", { count: street.deals })
          : t("hands.equity_sampled", { count: street.deals })))))));
}

function drawTable(doc, state, street = null) {
  const shares = new Map((street ? street.hands : []).map((hand) => [hand.hand_seat, hand]));
  const rows = state.seats.map((s) =>
    h("li", { class: `replay-seat${s.folded ? " folded" : ""}${s.you ? " you" : ""}`, dataset: { seat: String(s.seat) } },
      h("div", { class: "seat-head" },
        h("strong", {}, s.name), s.you ? h("span", { class: "badge" }, t("hands.you")) : null,
        s.bot ? h("span", { class: "badge bot" }, t("table.bot")) : null,
        doc.history.game === "casino-holdem"
          ? h("span", { class: "badge" }, t("hands.box", { box: s.tableSeat + 1 }))
          : null,
        // Teen Patti: whether the player has looked at the cards yet.
        doc.history.game === "teen-patti"
          ? h("span", { class: "badge" }, t(s.seen ? "hands.seen" : "hands.blind"))
          : null,
        s.folded ? h("span", { class: "badge" }, t("hands.folded")) : null,
        s.allIn ? h("span", { class: "badge" }, t("hands.all_in_badge")) : null),
      s.cards.length ? cardRow(s.cards, { faceUp: s.faceUp.length === s.cards.length ? s.faceUp : undefined }) : null,
      h("div", { class: "seat-chips" },
        t("hands.stack", { amount: formatChips(s.stack) }),
        s.bet ? ` · ${t("hands.bet", { amount: formatChips(s.bet) })}` : "",
        s.net !== null ? ` · ${t("hands.net", { amount: formatChips(s.net, { signed: true }) })}` : ""),
      s.shown ? h("div", { class: "seat-shown" }, s.shown) : null,
      shares.has(s.seat) ? equityBar(shares.get(s.seat), street) : null));
  const dealer = doc.history.game === "casino-holdem"
    ? h("div", { class: "replay-dealer" }, h("strong", {}, t("hands.dealer")),
      state.dealer.cards.length ? cardRow(state.dealer.cards) : null,
      state.dealer.description ? h("div", { class: "seat-shown" }, state.dealer.description) : null)
    : null;
  return [
    dealer,
    h("div", { class: "replay-middle" },
      h("div", { class: "replay-board", role: "group", "aria-label": t("hands.board") },
        state.board.length ? cardRow(state.board) : h("span", { class: "hint" }, t("hands.no_board"))),
      // The house game has boxes and bets, not one pot.
      h("div", { class: "replay-pot" },
        doc.history.game === "casino-holdem" ? "" : t("hands.pot", { amount: formatChips(state.pot) }),
        state.stake !== null ? ` · ${t("hands.stake", { amount: formatChips(state.stake) })}` : "")),
    h("ol", { class: "replay-seats", "aria-label": t("hands.players") }, rows),
  ];
}
