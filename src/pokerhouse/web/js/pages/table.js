// A table: the felt (seats, board, pots), the action bar, the log and the chat.
//
// Everything drawn comes from the server: the view (a `snapshot` after each
// step, asked for with `views`), the viewer's own `private` facts (hand name,
// decision), the `clock`, and the events, which only feed the log and the
// last hand's results.

import { h, replace } from "../dom.js";
import { handText } from "../handnames.js";
import { actionBar } from "../table/actions.js";
import { practiceOn, practicePanel, payTables, wagerForm } from "../table/casino.js";
import { centre } from "../table/centre.js";
import { clockRing } from "../table/clock.js";
import { describe } from "../table/log.js";
import { seatElement } from "../table/seat.js";
import { has } from "../i18n.js";

export const route = "/table/:id";

const LOG_LINES = 120;
const CHAT_LINES = 100;
let actCounter = 0;

function actId() {
  actCounter += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `w${Date.now().toString(36)}${random}${actCounter}`;
}

export function render(el, params, ctx) {
  const { t, formatChips } = ctx;
  const tableId = Number.parseInt(params.id, 10);
  if (!Number.isInteger(tableId) || tableId < 1) {
    replace(el, h("p", { class: "error" }, t("table.no_such_table")));
    return null;
  }
  const wantSit = params.query && params.query.get("sit") === "1";
  const state = {
    view: null,
    mine: {},
    mineHand: null,
    clock: null,
    clockSince: 0,
    results: new Map(),
    callEv: new Map(),
    asked: new Set(),
    mySeats: new Set(),
    canSit: false,
    sitting: null,
    adding: false,
    message: "",
    onSit: openSit,
  };
  const logList = h("ol", { class: "log-lines", id: "log", "aria-live": "polite", "aria-relevant": "additions" });
  const chatList = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const head = h("header", { class: "table-head" });
  const felt = h("div", { class: "felt", role: "region", "aria-label": t("table.felt") });
  const bar = h("div", { class: "bar", id: "action-bar" });
  const notice = h("p", { class: "error notice", role: "alert", id: "table-notice" });
  const chatInput = h("input", {
    id: "chat-input",
    maxlength: 300,
    autocomplete: "off",
    "aria-label": t("chat.line"),
    placeholder: t("chat.placeholder"),
  });
  const chatForm = h(
    "form",
    { class: "chat-form" },
    chatInput,
    h("button", { type: "submit", class: "small" }, t("chat.send")),
  );
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!ctx.me) {
      say(t("error.login_required"));
      return;
    }
    if (send({ type: "chat", table: tableId, text })) chatInput.value = "";
  });
  const side = h(
    "aside",
    { class: "side" },
    h("section", { class: "log" }, h("h2", {}, t("table.log")), logList),
    h("section", { class: "chat" }, h("h2", {}, t("chat.title")), chatList, ctx.me ? chatForm : h("p", { class: "help" }, t("chat.sign_in"))),
  );
  replace(
    el,
    h(
      "section",
      { class: "table-page", id: "table-page", dataset: { table: tableId } },
      head,
      h("div", { class: "table-main" }, h("div", { class: "play" }, felt, notice, bar), side),
    ),
  );
  replace(felt, h("p", { class: "hint loading" }, t("table.loading")));

  let bar_ = null;
  let barKey = "";

  function send(message) {
    const sent = ctx.socket.send(message);
    if (!sent) say(t("app.reconnecting"));
    return sent;
  }

  function say(text) {
    notice.textContent = text;
  }

  function name(seat) {
    if (seat === -1) return t("table.the_dealer");
    const entry = state.view && state.view.seats[seat];
    return entry ? entry.player : t("table.seat_n", { seat: seat + 1 });
  }

  function addLog(text, event = null) {
    const line = h("li", { dataset: event ? { event: event.type, number: event.number ?? "" } : {} }, text);
    logList.append(line);
    while (logList.children.length > LOG_LINES) logList.firstChild.remove();
    logList.scrollTop = logList.scrollHeight;
  }

  function addChat(user, text) {
    chatList.append(h("li", {}, h("strong", { class: "chat-user" }, user), ": ", h("span", { class: "chat-text" }, text)));
    while (chatList.children.length > CHAT_LINES) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  function recompute() {
    const view = state.view;
    const me = ctx.me;
    state.mySeats = new Set();
    if (me) {
      view.seats.forEach((entry, index) => {
        if (entry && entry.player === me.username) state.mySeats.add(index);
      });
    }
    const limit = view.table.max_boxes || 1;
    state.canSit = Boolean(me) && state.mySeats.size < limit;
    if (!me) state.canSit = true; // leads to the login page
  }

  function openAddChips() {
    state.adding = true;
    state.sitting = null;
    draw();
    const field = document.getElementById("add-amount");
    if (field) field.focus();
  }

  function addChipsForm() {
    const info = state.view.table;
    const seats = [...state.mySeats].sort((a, b) => a - b);
    const field = h("input", { type: "number", id: "add-amount", min: 1, max: info.max_buy_in, step: 1, value: info.min_buy_in, inputmode: "numeric" });
    const choose = h(
      "select",
      { id: "add-seat", "aria-label": t("table.add_chips_seat") },
      seats.map((seat) => h("option", { value: seat }, t("table.seat_n", { seat: seat + 1 }))),
    );
    const form = h(
      "form",
      { class: "sit-form", novalidate: true },
      h("label", { for: "add-amount" }, t("table.add_chips_help", { max: formatChips(info.max_buy_in) })),
      field,
      seats.length > 1 ? choose : null,
      h("button", { type: "submit", class: "button" }, t("table.add_chips")),
      h("button", { type: "button", class: "ghost", onclick: () => { state.adding = false; draw(); } }, t("table.cancel")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number.parseInt(field.value, 10);
      if (!Number.isInteger(amount) || amount < 1) {
        say(t("table.bad_amount"));
        field.focus();
        return;
      }
      // The server says whether it fits the table's limits and the moment (between hands).
      const seat = seats.length > 1 ? Number(choose.value) : seats[0];
      if (send({ type: "add_chips", table: tableId, seat, amount })) {
        state.adding = false;
        say("");
        draw();
      }
    });
    return form;
  }

  function openSit(seat) {
    if (!ctx.me) {
      sessionStorage.setItem("pokerhouse.after_login", `/table/${tableId}`);
      ctx.navigate("/login");
      return;
    }
    state.sitting = seat;
    draw();
    const field = document.getElementById("buy-in");
    if (field) field.focus();
  }

  function drawHead() {
    const view = state.view;
    const info = view.table;
    const hand = view.hand;
    const facts = [];
    if (view.game === "teen-patti") {
      if (hand && hand.facts) {
        facts.push(
          h("span", { class: "fact blind-stake" }, t("table.blind_stake", { amount: formatChips(hand.facts.blind_min) })),
          h("span", { class: "fact seen-stake" }, t("table.seen_stake", { amount: formatChips(hand.facts.seen_min) })),
          h("span", { class: "fact" }, t("table.current_stake", { amount: formatChips(hand.facts.stake) })),
        );
      } else {
        facts.push(h("span", { class: "fact" }, t("table.boot", { amount: formatChips(info.spec.ante) })));
      }
    }
    if (hand && hand.facts && hand.facts.bring_in !== null && hand.facts.bring_in !== undefined) {
      facts.push(h("span", { class: "fact" }, t("table.bring_in_by", { name: name(hand.facts.bring_in) })));
    }
    const controls = [];
    if (state.mySeats.size) {
      const mineEntries = [...state.mySeats].map((seat) => view.seats[seat]);
      const out = mineEntries.every((entry) => entry.sitting_out);
      controls.push(
        h("button", { type: "button", class: "ghost small", id: "sit-toggle", onclick: () => send({ type: out ? "sit_in" : "sit_out", table: tableId }) }, out ? t("table.sit_in") : t("table.sit_out")),
        h("button", { type: "button", class: "ghost small", id: "add-chips", onclick: openAddChips }, t("table.add_chips")),
        h("button", { type: "button", class: "ghost small", id: "leave", onclick: () => send({ type: "leave", table: tableId }) }, t("table.leave")),
      );
    }
    replace(
      head,
      h(
        "div",
        { class: "title" },
        h("h1", {}, info.name),
        h("span", { class: "game-tag" }, t(`game.${view.game}`)),
        h("a", { href: `#/rules/${view.game}`, class: "rules-link" }, t("table.rules")),
      ),
      facts.length ? h("div", { class: "facts-bar", "aria-live": "polite" }, facts) : null,
      controls.length ? h("div", { class: "controls" }, controls) : null,
    );
  }

  function positions(size, game) {
    // Seats round an ellipse, the viewer's first seat at the bottom; a
    // casino's boxes along the lower rail facing the dealer at the top.
    const first = state.mySeats.size ? Math.min(...state.mySeats) : 0;
    const spots = [];
    for (let seat = 0; seat < size; seat += 1) {
      let angle;
      if (game === "casino-holdem") {
        // Boxes in a smile along the rail, left to right.
        const along = size === 1 ? 0.5 : seat / (size - 1);
        spots.push({ x: 8 + 84 * along, y: 52 + 28 * Math.sin(Math.PI * along) });
        continue;
      }
      angle = 90 + ((seat - first) * 360) / size;
      const radians = (angle * Math.PI) / 180;
      spots.push({ x: 50 + 42 * Math.cos(radians), y: 50 + 38 * Math.sin(radians) });
    }
    return spots;
  }

  function drawFelt() {
    const view = state.view;
    const spots = positions(view.size, view.game);
    const seats = view.seats.map((entry, index) => {
      const seat = seatElement(index, entry, state, ctx);
      seat.style.setProperty("--x", `${spots[index].x}%`);
      seat.style.setProperty("--y", `${spots[index].y}%`);
      return seat;
    });
    felt.className = `felt game-${view.game} seats-${view.size}`;
    replace(felt, centre(view, ctx), h("div", { class: "seats" }, seats));
  }

  function myDecision() {
    const hand = state.view.hand;
    if (!hand || state.mineHand !== hand.number) return null;
    for (const [seat, facts] of Object.entries(state.mine)) {
      if (facts && facts.decision && hand.to_act === Number(seat)) return { seat: Number(seat), decision: facts.decision };
    }
    return null;
  }

  function handNames() {
    const hand = state.view.hand;
    if (!hand || state.mineHand !== hand.number) return [];
    return Object.entries(state.mine)
      .filter(([, facts]) => facts && facts.hand_name)
      .map(([seat, facts]) =>
        h(
          "p",
          { class: "you-have", dataset: { seat } },
          state.mySeats.size > 1 ? t("table.you_have_box", { seat: Number(seat) + 1, hand: handText(facts.hand_name) }) : t("table.you_have", { hand: handText(facts.hand_name) }),
        ),
      );
  }

  function drawBar() {
    const view = state.view;
    const decision = myDecision();
    const key = JSON.stringify([view.hand && view.hand.number, decision, state.sitting, state.adding, view.hand === null, [...state.mySeats], view.window]);
    const names = handNames();
    const casino = view.game === "casino-holdem";
    if (key === barKey && bar_) {
      // Same decision: keep what the player is typing; refresh the hand names and practice values.
      const slot = bar.querySelector(".hand-names");
      if (slot) replace(slot, names);
      const practice = bar.querySelector(".practice-slot");
      if (practice) replace(practice, practicePanel(state.callEv, ctx, onPractice, counting()));
      return;
    }
    barKey = key;
    bar_ = null;
    const parts = [h("div", { class: "hand-names" }, names)];
    if (state.sitting !== null) {
      parts.push(sitForm(state.sitting));
    } else if (state.adding && state.mySeats.size) {
      parts.push(addChipsForm());
    } else if (decision) {
      const clock = state.clock && state.clock.seat === decision.seat ? clockRing(state.clock, state.clockSince, t, { large: true }) : null;
      bar_ = actionBar(decision.decision, {
        t,
        formatChips,
        game: view.game,
        act: (action) => {
          send({ type: "act", table: tableId, hand: view.hand.number, action, id: actId() });
        },
      });
      parts.push(
        h(
          "div",
          { class: "turn" },
          clock,
          h("strong", {}, state.mySeats.size > 1 ? t("table.your_turn_box", { seat: decision.seat + 1 }) : t("table.your_turn")),
          state.clock && state.clock.seat === decision.seat
            ? h("span", { class: "help bank-left" }, t("clock.bank_total", { seconds: Math.round(state.clock.bank_ms / 1000) }))
            : null,
        ),
        bar_.el,
      );
      ctx.announce(t("table.your_turn"));
    } else if (state.mySeats.size && view.hand) {
      parts.push(h("p", { class: "help waiting-turn" }, t("table.waiting_turn", { name: view.hand.to_act === null ? "" : name(view.hand.to_act) })));
    } else if (!state.mySeats.size) {
      parts.push(h("p", { class: "help" }, ctx.me ? t("table.pick_seat") : t("table.watching")));
    }
    if (casino && state.mySeats.size && !view.hand) {
      parts.push(wagerForm([...state.mySeats].sort((a, b) => a - b), view, ctx, send));
    }
    if (casino && state.mySeats.size) parts.push(h("div", { class: "practice-slot" }, practicePanel(state.callEv, ctx, onPractice, counting())));
    if (casino) parts.push(payTables(view.table.spec, ctx));
    replace(bar, parts);
    if (bar_ && bar.contains(document.activeElement) === false && document.activeElement === document.body) bar_.focus();
  }

  function counting() {
    const hand = state.view.hand;
    return Boolean(hand) && [...state.asked].some((marker) => marker.startsWith(`${hand.number}:`));
  }

  function onPractice(on) {
    if (on) askCallEv();
    barKey = "";
    drawBar();
  }

  function askCallEv() {
    const view = state.view;
    if (view.game !== "casino-holdem" || !practiceOn() || !view.hand) return;
    if (state.mineHand !== view.hand.number) return;
    const flop = (view.hand.board || []).filter(Boolean).length >= 3;
    if (!flop) return;
    for (const seat of state.mySeats) {
      const entry = view.seats[seat];
      const marker = `${view.hand.number}:${seat}`;
      if (entry && entry.in_hand && !entry.folded && !entry.called && !state.asked.has(marker)) {
        state.asked.add(marker);
        send({ type: "call_ev", table: tableId, seat });
      }
    }
  }

  function sitForm(seat) {
    const info = state.view.table;
    const wallet = ctx.me ? ctx.me.wallet : 0;
    const fallback = Math.max(info.min_buy_in, Math.min(info.max_buy_in, wallet));
    const field = h("input", { type: "number", id: "buy-in", min: info.min_buy_in, max: info.max_buy_in, step: 1, value: fallback, inputmode: "numeric" });
    const form = h(
      "form",
      { class: "sit-form", novalidate: true },
      h("label", { for: "buy-in" }, t("table.buy_in_for", { seat: seat + 1, min: formatChips(info.min_buy_in), max: formatChips(info.max_buy_in) })),
      field,
      h("button", { type: "submit", class: "button", id: "sit-down" }, t("table.sit_down")),
      h("button", { type: "button", class: "ghost", onclick: () => { state.sitting = null; draw(); } }, t("table.cancel")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number.parseInt(field.value, 10);
      if (!Number.isInteger(amount) || amount < info.min_buy_in || amount > info.max_buy_in) {
        say(t("table.bad_buy_in", { min: formatChips(info.min_buy_in), max: formatChips(info.max_buy_in) }));
        field.focus();
        return;
      }
      if (send({ type: "sit", table: tableId, seat, buy_in: amount })) {
        state.sitting = null;
        say("");
      }
    });
    return form;
  }

  function draw() {
    if (!state.view) return;
    recompute();
    drawHead();
    drawFelt();
    drawBar();
    document.title = `${state.view.table.name} · pokerhouse`;
  }

  function onEvent(event) {
    if (!event) return;
    if (event.type === "table_hand_started") {
      state.results = new Map();
      state.callEv = new Map();
    }
    if (event.type === "hand_shown" && event.description) {
      state.results.set(event.seat, { net: 0, text: event.description });
    }
    if (event.type === "table_hand_ended") {
      event.seats.forEach((seat, index) => {
        const net = event.net[index];
        const shown = state.results.get(seat);
        const amount = formatChips(net, { signed: true });
        state.results.set(seat, { net, text: shown && shown.text ? `${amount} · ${shown.text}` : amount });
      });
    }
    if (event.type === "box_settled") {
      state.results.set(event.seat, { net: event.net, text: `${t(`outcome.${event.outcome}`)} ${formatChips(event.net, { signed: true })}` });
    }
    if (event.type === "player_sat" || event.type === "player_left" || event.type === "chips_added") {
      if (ctx.me && event.player === ctx.me.username) ctx.refreshMe();
    }
    const line = describe(event, name, ctx, state.mySeats, state.view ? state.view.game : "");
    if (line) addLog(line, event);
  }

  function onMessage(message) {
    switch (message.type) {
      case "snapshot": {
        const view = message.view;
        const hand = view.hand;
        state.view = view;
        if (hand) {
          state.mine = hand.mine || {};
          state.mineHand = hand.number;
        } else {
          state.mine = {};
          state.mineHand = null;
        }
        if (view.clock) {
          const same = state.clock && state.clock.seat === view.clock.seat && state.clock.hand === (hand && hand.number);
          if (!same) {
            state.clock = { ...view.clock, hand: hand && hand.number };
            state.clockSince = performance.now();
          }
        } else {
          state.clock = null;
        }
        recompute();
        askCallEv(); // before drawing, so the bar can say the count is under way
        draw();
        if (wantSit && !state.asked.has("sit") && ctx.me && !state.mySeats.size) {
          state.asked.add("sit");
          const free = view.seats.findIndex((entry) => entry === null);
          if (free >= 0) openSit(free);
        }
        break;
      }
      case "private":
        state.mine = message.mine || {};
        state.mineHand = message.hand;
        if (state.view) {
          askCallEv();
          drawBar();
        }
        break;
      case "clock":
        state.clock = { seat: message.seat, limit_ms: message.limit_ms, bank_ms: message.bank_ms, hand: message.hand };
        state.clockSince = performance.now();
        if (state.view) {
          drawFelt();
          barKey = "";
          drawBar();
        }
        break;
      case "window":
        if (state.view) {
          state.view.window = { ...(state.view.window || {}), open: message.open };
          if (message.open) addLog(t("log.window_open", { seconds: message.seconds }));
          draw();
        }
        break;
      case "event":
        onEvent(message.event);
        break;
      case "chat":
        addChat(message.user, message.text);
        break;
      case "call_ev":
        state.callEv.set(String(message.seat), message);
        if (state.view) drawBar();
        break;
      case "error": {
        const key = `error.${message.code}`;
        say(has(key) ? t(key) : message.message);
        if (message.id) {
          barKey = ""; // an action refused: offer the choices again
          if (state.view) drawBar();
        }
        break;
      }
      case "ack":
        say("");
        break;
      default:
        break;
    }
  }

  function onKey(event) {
    if (bar_ && bar_.key(event)) return;
    if (event.key === "Escape" && (state.sitting !== null || state.adding)) {
      state.sitting = null;
      state.adding = false;
      draw();
    }
  }

  document.addEventListener("keydown", onKey);
  const unwatch = ctx.socket.watch(tableId, onMessage);
  return () => {
    document.removeEventListener("keydown", onKey);
    unwatch();
  };
}
