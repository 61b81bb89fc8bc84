// A table: the felt (seats, board, pots), the action bar, the log and the chat.
//
// Everything drawn comes from the server: the view (a `snapshot` after each
// step, asked for with `views`), the viewer's own `private` facts (hand name,
// decision), the `clock`, and the events, which feed the log and the page's
// picture of the hand (js/table/picture.js): once a hand is over the server's
// view has no hand, and the page draws the finished one from that picture,
// showdown and all, until the next hand starts.

import { h, replace } from "../dom.js";
import { handText } from "../handnames.js";
import { actionBar, isShowOrMuck } from "../table/actions.js";
import { askForNotificationsOnce, markTab, unlockSound, unmarkTab, yourTurn } from "../table/alerts.js";
import { practiceOn, practicePanel, payTables, wagerForm } from "../table/casino.js";
import { centre } from "../table/centre.js";
import { clockRing } from "../table/clock.js";
import { HandLog } from "../table/handlog.js";
import { describe } from "../table/log.js";
import { animate } from "../table/motion.js";
import { HandPicture } from "../table/picture.js";
import { holds, preActionsPanel, resolve, situation } from "../table/preactions.js";
import { checkRequest, refusalText } from "../table/refusals.js";
import { seatElement, seatName } from "../table/seat.js";
import { setting, settingsPanel } from "../table/settings.js";
import { tableName } from "../tablename.js";
import { followTournament } from "../table/tournament.js";
import { homePanel } from "../table/home.js";
import { fitFelt, seatSpots } from "../table/layout.js";

export const route = "/table/:id";

const LOG_LINES = 160;
const CHAT_LINES = 100;
const NOTICE_MS = 8000;
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
    seq: null,
    mine: {},
    mineHand: null,
    clock: null,
    clockSince: 0,
    picture: new HandPicture(),
    callEv: new Map(),
    asked: new Set(),
    mySeats: new Set(),
    canSit: false,
    sitting: null,
    adding: false,
    pre: null, // the pre-action chosen while waiting
    preNote: "", // what the last pre-action did
    decisionKey: null, // the decision last seen for the viewer
    answered: null, // the decision a pre-action or the auto-muck answered
    acts: new Map(), // act id -> the action sent
    request: null, // the last request other than an act (for the words of its refusal)
    queuedChips: null, // chips to add once the hand is over
    rebuys: new Set(),
    restored: false,
    onSit: openSit,
  };
  const handLog = new HandLog(tableId);
  const BUY_IN_KEY = `pokerhouse.buyIn.${tableId}`;
  // Both lists scroll in their own box: a keyboard reaches them to scroll them.
  const logList = h("ol", { class: "log-lines", id: "log", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": t("table.log") });
  const chatList = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-label": t("chat.title") });
  const head = h("header", { class: "table-head" });
  const felt = h("div", { class: "felt", role: "region", "aria-label": t("table.felt") });
  const bar = h("div", { class: "bar", id: "action-bar" });
  const notice = h("p", { class: "error notice", role: "alert", id: "table-notice" });
  const settingsSlot = h("div", { class: "settings-slot" });
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
      h("div", { class: "table-main" }, h("div", { class: "play" }, felt, notice, bar, settingsSlot), side),
    ),
  );
  replace(felt, h("p", { class: "hint loading" }, t("table.loading")));

  let bar_ = null;
  let barKey = "";
  let noticeTimer = null;

  function send(message) {
    const sent = ctx.socket.send(message);
    if (!sent) say(t("app.reconnecting"));
    else if (message.type !== "act" && message.type !== "chat") state.request = message;
    return sent;
  }

  /** Check a request as the room would, say why not, or send it. */
  function request(message) {
    const problem = state.view ? checkRequest(message, state.view, ctx) : null;
    if (problem) {
      say(problem);
      return false;
    }
    return send(message);
  }

  /** The red notice: a refusal or a problem, cleared after a while or by the next step. */
  function say(text) {
    notice.textContent = text;
    clearTimeout(noticeTimer);
    if (text) noticeTimer = setTimeout(() => (notice.textContent = ""), NOTICE_MS);
  }

  function name(seat) {
    if (seat === -1) return t("table.the_dealer");
    return state.view ? seatName(state.view, seat, t) : t("table.seat_n", { seat: seat + 1 });
  }

  function addLog(text, event = null) {
    const line = h("li", { dataset: event ? { event: event.type, number: event.number ?? "" } : {} }, text);
    logList.append(line);
    while (logList.children.length > LOG_LINES) logList.firstChild.remove();
    logList.scrollTop = logList.scrollHeight;
  }

  // A house bot's line is a phrase, shown in the reader's language and marked as a bot's.
  function addChat(user, text, phrase) {
    const said = phrase ? t(`chat.phrase.${phrase}`) : text;
    const line = phrase && said !== `chat.phrase.${phrase}` ? said : text;
    const badge = phrase ? [" ", h("span", { class: "badge" }, t("table.bot"))] : [];
    chatList.append(h("li", {}, h("strong", { class: "chat-user" }, user), ...badge, ": ", h("span", { class: "chat-text" }, line)));
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
    if (view.table.tournament) state.canSit = false; // the tournament seats its players
    if (view.table.bots_only && !(me && me.bot)) state.canSit = false; // bot accounts only
  }

  function mySeatsSorted() {
    return [...state.mySeats].sort((a, b) => a - b);
  }

  /** Whether one of the viewer's seats is dealt into the running hand. */
  function inHand() {
    const view = state.view;
    return Boolean(view.hand) && mySeatsSorted().some((seat) => view.seats[seat] && view.seats[seat].in_hand);
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
    const seats = mySeatsSorted();
    const first = state.view.seats[seats[0]];
    const room = Math.max(1, info.max_buy_in - (first ? first.stack : 0));
    const field = h("input", { type: "number", id: "add-amount", min: 1, max: info.max_buy_in, step: 1, value: Math.min(room, info.min_buy_in), inputmode: "numeric" });
    const choose = h(
      "select",
      { id: "add-seat", "aria-label": t("table.add_chips_seat") },
      seats.map((seat) => h("option", { value: seat }, name(seat))),
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
      const seat = seats.length > 1 ? Number(choose.value) : seats[0];
      const message = { type: "add_chips", table: tableId, seat, amount };
      const problem = checkRequest(message, state.view, ctx);
      if (problem) {
        say(problem);
        field.focus();
        return;
      }
      if (state.view.seats[seat] && state.view.seats[seat].in_hand && state.view.hand) {
        // Chips are added between hands: keep the request and send it when this hand is over.
        state.queuedChips = message;
        state.adding = false;
        say("");
        addLog(t("table.chips_after_hand", { amount: formatChips(amount), seat: seat + 1 }));
        draw();
        return;
      }
      if (send(message)) {
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
    // A tournament deals its players every hand and stands them up itself.
    if (state.mySeats.size && !info.tournament) {
      const mine = mySeatsSorted().map((seat) => view.seats[seat]);
      const out = mine.every((entry) => entry.sitting_out);
      const leaving = mine.every((entry) => entry.leaving);
      const sitOut = h("input", { type: "checkbox", id: "sit-toggle", checked: out });
      sitOut.addEventListener("change", () => send({ type: sitOut.checked ? "sit_out" : "sit_in", table: tableId }));
      controls.push(h("label", { class: "inline toggle", for: "sit-toggle" }, sitOut, " ", t("table.sit_out_next")));
      if (inHand()) {
        // Leaving during a hand stands the player up at its end; it cannot be taken back.
        const leave = h("input", { type: "checkbox", id: "leave", checked: leaving, disabled: leaving });
        leave.addEventListener("change", () => {
          if (leave.checked) send({ type: "leave", table: tableId });
        });
        controls.push(h("label", { class: "inline toggle", for: "leave" }, leave, " ", t("table.leave_after_hand")));
      } else {
        controls.push(h("button", { type: "button", class: "ghost small", id: "leave", onclick: () => send({ type: "leave", table: tableId }) }, t("table.leave")));
      }
      controls.push(h("button", { type: "button", class: "ghost small", id: "add-chips", onclick: openAddChips }, t("table.add_chips")));
    }
    const named = tableName(info);
    replace(
      head,
      h(
        "div",
        { class: "title" },
        h("h1", {}, named.name),
        h("span", { class: "game-tag" }, t(`game.${view.game}`)),
        h("a", { href: `#/rules/${view.game}`, class: "rules-link" }, t("table.rules")),
      ),
      facts.length ? h("div", { class: "facts-bar", "aria-live": "polite" }, facts) : null,
      controls.length ? h("div", { class: "controls" }, controls) : null,
    );
  }

  /** The view to draw: the server's, or the finished hand while the next one has not started. */
  function shownView() {
    const view = state.view;
    return state.picture.showsFor(view) ? state.picture.drawnView(view, state.mySeats) : view;
  }

  function drawFelt() {
    const view = shownView();
    const over = Boolean(view.hand && view.hand.over);
    const first = state.mySeats.size ? Math.min(...state.mySeats) : 0;
    const spots = seatSpots(view.size, view.game, first);
    const drawing = { ...state, view, picture: over ? state.picture : null };
    const seats = view.seats.map((entry, index) => {
      const seat = seatElement(index, entry, drawing, ctx);
      const spot = spots[index];
      seat.style.setProperty("--x", `${spot.x}%`);
      seat.style.setProperty("--y", `${spot.y}%`);
      seat.style.setProperty("--around", String(spot.around));
      seat.style.setProperty("--nudge", `${spot.nudge}em`);
      seat.dataset.toward = spot.toward;
      return seat;
    });
    felt.className = `felt game-${view.game} seats-${view.size}${over ? " over" : ""}`;
    replace(felt, centre(view, ctx, over ? state.picture : null), h("div", { class: "seats" }, seats));
    if (over) animate(felt, state.picture);
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

  function act(action) {
    const id = actId();
    state.acts.set(id, action);
    send({ type: "act", table: tableId, hand: state.view.hand.number, action, id });
  }

  /**
   * A decision seen for the first time: a pre-action or the auto-muck answers
   * it, or the player is told it is their turn. True when it was answered.
   */
  function newDecision(found) {
    const hand = state.view.hand;
    const chosen = state.pre;
    state.pre = null;
    if (chosen && chosen.hand === hand.number && chosen.street === hand.street) {
      const action = resolve(chosen, found.decision);
      if (action) {
        state.preNote = t(`pre.done.${action.kind}`);
        act(action);
        return true;
      }
      state.preNote = t("pre.cleared"); // the bets changed on the way: the player decides
    }
    if (setting("autoMuck") && isShowOrMuck(found.decision, state.view.game)) {
      state.preNote = t("pre.done.muck");
      act({ kind: "muck" });
      return true;
    }
    yourTurn(tableName(state.view.table).name, t);
    return false;
  }

  function waitingPanel() {
    const view = state.view;
    const parts = [];
    const hand = view.hand;
    if (!hand) return parts;
    parts.push(h("p", { class: "help waiting-turn" }, t("table.waiting_turn", { name: hand.to_act === null ? "" : name(hand.to_act) })));
    const seat = mySeatsSorted().find((each) => situation(view, each));
    const now = seat === undefined ? null : situation(view, seat);
    if (now) {
      parts.push(
        preActionsPanel(now, state.pre, ctx, (choice) => {
          state.pre = choice;
          state.preNote = "";
          barKey = "";
          drawBar();
        }),
      );
    }
    return parts;
  }

  /** Chips to buy again for a busted `seat`: the last buy-in here, within the table's limits. */
  function rebuyAmount(seat) {
    const info = state.view.table;
    const entry = state.view.seats[seat];
    const most = info.max_buy_in - entry.stack;
    const least = Math.max(1, info.min_buy_in - entry.stack);
    const last = Number(sessionStorage.getItem(BUY_IN_KEY)) || info.min_buy_in;
    const wallet = ctx.me ? ctx.me.wallet : last;
    return { least, most, amount: Math.max(least, Math.min(most, last, wallet)) };
  }

  function rebuyForm(seat) {
    const { least, most, amount } = rebuyAmount(seat);
    const field = h("input", { type: "number", id: "rebuy-amount", min: least, max: most, step: 1, value: amount, inputmode: "numeric" });
    const form = h(
      "form",
      { class: "sit-form rebuy", id: "rebuy-form", novalidate: true },
      h("strong", { class: "busted-text" }, state.mySeats.size > 1 ? t("table.busted_box", { seat: seat + 1 }) : t("table.busted_you")),
      h("label", { for: "rebuy-amount" }, t("table.rebuy_help", { min: formatChips(least), max: formatChips(most) })),
      field,
      h("button", { type: "submit", class: "button", id: "rebuy" }, t("table.rebuy")),
      h("button", { type: "button", class: "ghost", id: "rebuy-leave", onclick: () => send({ type: "leave", table: tableId }) }, t("table.leave")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number.parseInt(field.value, 10);
      if (request({ type: "add_chips", table: tableId, seat, amount })) say("");
    });
    return form;
  }

  /** A busted seat of the viewer's, between hands (the first), or null. */
  function bustedSeat() {
    if (inHand()) return null;
    return mySeatsSorted().find((seat) => state.view.seats[seat] && state.view.seats[seat].busted) ?? null;
  }

  function autoRebuy() {
    const seat = bustedSeat();
    if (seat === null || !setting("autoRebuy")) return;
    const marker = `${seat}:${state.view.hands_played}`;
    if (state.rebuys.has(marker)) return;
    state.rebuys.add(marker);
    const { amount } = rebuyAmount(seat);
    if (amount >= 1) {
      addLog(t("table.auto_rebuy", { amount: formatChips(amount) }));
      request({ type: "add_chips", table: tableId, seat, amount });
    }
  }

  function drawBar() {
    const view = state.view;
    const decision = myDecision();
    const busted = bustedSeat();
    const casino = view.game === "casino-holdem";
    const over = state.picture.showsFor(view);
    const waitingKey = decision || !view.hand ? null : JSON.stringify([situation(view, mySeatsSorted()[0] ?? -1), state.pre, view.hand.to_act]);
    const key = JSON.stringify([view.hand && view.hand.number, decision, state.answered, state.sitting, state.adding, view.hand === null, [...state.mySeats], view.window, waitingKey, busted, over, state.preNote]);
    const names = handNames();
    if (key === barKey && (bar_ || !decision)) {
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
    if (state.preNote) parts.push(h("p", { class: "help pre-note", role: "status" }, state.preNote));
    // A form the player opened (buy-in for another box, chips to add) stays under the decision,
    // never in its place: the decision's keys work whatever else is open.
    const form = state.sitting !== null ? sitForm(state.sitting) : state.adding && state.mySeats.size ? addChipsForm() : null;
    if (decision && state.answered === state.decisionKey) {
      // A pre-action (or the auto-muck) answered this decision: nothing to press.
      if (form) parts.push(form);
    } else if (decision) {
      const clock = state.clock && state.clock.seat === decision.seat ? clockRing(state.clock, state.clockSince, t, { large: true }) : null;
      const entry = view.seats[decision.seat];
      bar_ = actionBar(decision.decision, {
        t,
        formatChips,
        game: view.game,
        bet: entry ? entry.bet : 0,
        said: (text) => ctx.announce(text),
        home: () => {
          const turn = document.getElementById("your-turn");
          if (turn) turn.focus();
        },
        act: (action) => {
          state.preNote = "";
          act(action);
        },
      });
      const turn = h(
        "div",
        { class: "turn", tabindex: "-1", id: "your-turn" },
        clock,
        h("strong", {}, state.mySeats.size > 1 ? t("table.your_turn_box", { seat: decision.seat + 1 }) : t("table.your_turn")),
        state.clock && state.clock.seat === decision.seat
          ? h("span", { class: "help bank-left" }, t("clock.bank_total", { seconds: Math.round(state.clock.bank_ms / 1000) }))
          : null,
      );
      parts.push(turn, bar_.el);
      if (form) parts.push(form);
      ctx.announce(t("table.your_turn"));
    } else if (form) {
      parts.push(form);
    } else if (busted !== null) {
      parts.push(rebuyForm(busted));
    } else if (state.mySeats.size && view.hand && inHand()) {
      parts.push(...waitingPanel());
    } else if (state.mySeats.size && view.hand) {
      parts.push(h("p", { class: "help waiting-turn" }, t("table.next_hand_you")));
    } else if (state.mySeats.size && !casino) {
      parts.push(h("p", { class: "help between-hands" }, t(over ? "table.hand_over_next" : "table.waiting")));
    } else if (!state.mySeats.size) {
      parts.push(h("p", { class: "help" }, ctx.me ? t("table.pick_seat") : t("table.watching")));
    }
    if (casino && state.mySeats.size && !view.hand) {
      parts.push(wagerForm(mySeatsSorted(), view, ctx, send, { repeat: Boolean(lastBets()), say }));
    }
    if (casino && state.mySeats.size) parts.push(h("div", { class: "practice-slot" }, practicePanel(state.callEv, ctx, onPractice, counting())));
    if (casino) parts.push(payTables(view.table.spec, ctx));
    const focusWasHere = bar.contains(document.activeElement);
    const focusedId = focusWasHere ? document.activeElement.id : "";
    replace(bar, parts);
    bar.classList.toggle("deciding", Boolean(bar_));
    // A control drawn again keeps the focus (a pre-action box just ticked, say).
    const again = focusedId && !decision ? document.getElementById(focusedId) : null;
    if (again && bar.contains(again)) again.focus({ preventScroll: true });
    if (decision) {
      // The focus goes to the words "Your turn", never to a button: Enter or Space does nothing.
      const lost = !document.activeElement || document.activeElement === document.body || focusWasHere;
      const turn = bar.querySelector("#your-turn");
      if (lost && turn) turn.focus({ preventScroll: true });
    }
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
    const label = state.view.game === "casino-holdem" ? "table.buy_in_for_box" : "table.buy_in_for";
    const form = h(
      "form",
      { class: "sit-form", novalidate: true },
      h("label", { for: "buy-in" }, t(label, { seat: seat + 1, min: formatChips(info.min_buy_in), max: formatChips(info.max_buy_in) })),
      field,
      h("button", { type: "submit", class: "button", id: "sit-down" }, t("table.sit_down")),
      h("button", { type: "button", class: "ghost", onclick: () => { state.sitting = null; draw(); } }, t("table.cancel")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number.parseInt(field.value, 10);
      const message = { type: "sit", table: tableId, seat, buy_in: amount };
      const problem = checkRequest(message, state.view, ctx);
      if (problem) {
        say(problem);
        field.focus();
        return;
      }
      askForNotificationsOnce();
      sessionStorage.setItem(BUY_IN_KEY, String(amount));
      if (send(message)) {
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
    fitFelt(felt);
    markTab(tableName(state.view.table).name, Boolean(myDecision()), t);
  }

  /** Between hands: send the chips the player asked for during the last one. */
  function sendQueued() {
    const queued = state.queuedChips;
    if (!queued || !state.view || inHand()) return;
    state.queuedChips = null;
    request(queued);
  }

  function onEvent(event, seq, restoring = false) {
    if (!event) return;
    if (!restoring) handLog.add(event, seq);
    state.picture.apply(event, seq);
    if (event.type === "table_hand_started") {
      state.callEv = new Map();
      state.pre = null;
      if (!restoring) state.preNote = "";
    }
    if (!restoring && (event.type === "player_sat" || event.type === "player_left" || event.type === "chips_added")) {
      if (ctx.me && event.player === ctx.me.username) ctx.refreshMe();
    }
    // The player's own request went through: an older refusal no longer stands.
    const own = event.player ? ctx.me && event.player === ctx.me.username : state.mySeats.has(event.seat);
    if (!restoring && own && ["player_sat", "chips_added", "wager_set", "sitting_out", "player_leaving"].includes(event.type)) say("");
    if (!restoring && event.type === "table_hand_started") say("");
    const line = describe(event, name, ctx, state.mySeats, state.view ? state.view.game : "");
    if (line) addLog(line, event);
  }

  /** After a reload: the hand's log from what this tab kept, then what it missed. */
  function restore(view, seq) {
    state.restored = true;
    const saved = handLog.load();
    const number = view.hand ? view.hand.number : view.hands_played;
    if (!saved || saved.hand !== number || !saved.events.length) return;
    handLog.adopt(saved);
    for (const kept of saved.events) if (kept.seq <= seq) onEvent(kept.event, kept.seq, true);
    const last = saved.events[saved.events.length - 1].seq;
    if (last < seq) ctx.socket.rewind(tableId, last);
  }

  function onSnapshot(message) {
    const view = message.view;
    const hand = view.hand;
    state.view = view;
    state.seq = message.seq;
    if (hand) {
      state.mine = hand.mine || {};
      state.mineHand = hand.number;
      state.picture.copy(view, message.seq);
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
    if (!state.restored) restore(view, message.seq);
    // A pre-action holds only for the situation it was chosen in.
    if (state.pre) {
      const seat = mySeatsSorted().find((each) => situation(view, each));
      const now = seat === undefined ? null : situation(view, seat);
      if (now && !holds(state.pre, now)) {
        state.pre = null;
        state.preNote = t("pre.cleared");
      }
    }
    askCallEv(); // before drawing, so the bar can say the count is under way
    decisionSeen();
    draw();
    sendQueued();
    autoRebuy();
    if (wantSit && !state.asked.has("sit") && ctx.me && !state.mySeats.size) {
      state.asked.add("sit");
      const free = view.seats.findIndex((entry) => entry === null);
      if (free >= 0) openSit(free);
    }
  }

  /** Notice a decision new to the viewer: alerts, pre-actions, the notice cleared. */
  function decisionSeen() {
    const found = state.view ? myDecision() : null;
    if (!found) {
      state.decisionKey = null;
      return;
    }
    const key = JSON.stringify([state.view.hand.number, found.seat, found.decision.actions]);
    if (key === state.decisionKey) return;
    state.decisionKey = key;
    say("");
    if (newDecision(found)) state.answered = key;
  }

  function onMessage(message) {
    switch (message.type) {
      case "snapshot":
        onSnapshot(message);
        break;
      case "private":
        state.mine = message.mine || {};
        state.mineHand = message.hand;
        if (state.view) {
          askCallEv();
          decisionSeen();
          drawBar();
          markTab(tableName(state.view.table).name, Boolean(myDecision()), t);
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
          if (message.open) {
            addLog(t("log.window_open", { seconds: message.seconds }));
            repeatBets(true);
          }
          draw();
        }
        break;
      case "event":
        onEvent(message.event, message.seq);
        break;
      case "chat":
        addChat(message.user, message.text, message.phrase);
        break;
      case "call_ev":
        state.callEv.set(String(message.seat), message);
        if (state.view) drawBar();
        break;
      case "error": {
        const sent = message.id ? { type: "act", action: state.acts.get(message.id) } : state.request;
        say(refusalText(message, sent, state.view, ctx));
        if (message.id) {
          state.answered = null;
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

  /** Casino Hold'em: the last bets placed, kept for this tab. */
  const BETS_KEY = `pokerhouse.bets.${tableId}`;
  function lastBets() {
    try {
      return JSON.parse(sessionStorage.getItem(BETS_KEY) || "null");
    } catch {
      return null;
    }
  }

  /** Place the last bets again (`auto`: the window opened and the setting says so). */
  function repeatBets(auto = false) {
    const view = state.view;
    if (!view || view.game !== "casino-holdem" || (auto && !setting("repeatBets"))) return;
    const bets = lastBets();
    if (!bets) return;
    for (const bet of bets) {
      const entry = view.seats[bet.seat];
      if (!state.mySeats.has(bet.seat) || !entry) continue;
      if (auto && entry.ante === bet.ante && entry.bonus === bet.bonus) continue; // they stand
      request({ type: "wager", table: tableId, seat: bet.seat, ante: bet.ante, bonus: bet.bonus });
    }
  }

  function onKey(event) {
    unlockSound();
    if (bar_ && bar_.key(event)) return;
    if (event.key === "Escape" && (state.sitting !== null || state.adding)) {
      state.sitting = null;
      state.adding = false;
      draw();
    }
  }

  function onSettings(name) {
    if (name === "autoRebuy") autoRebuy();
    barKey = "";
    if (state.view) drawBar();
  }

  const refit = () => fitFelt(felt);
  const above = new ResizeObserver(refit);
  above.observe(head);

  // A tournament's table: its strip (level, clock, place) and the player followed on moves.
  let unfollow = null;
  let home = null;
  const unwatch = ctx.socket.watch(tableId, (message) => {
    if (ctx.me && message.type === "snapshot" && (!state.view || state.view.game !== message.view.game)) {
      replace(settingsSlot, settingsPanel(message.view.game, ctx, onSettings));
    }
    if (message.type === "home") {
      // A private table: its host's panel and the session ledger, above the felt.
      if (!home) {
        home = homePanel(tableId, send, ctx);
        head.after(home.el);
        above.observe(home.el);
      }
      home.update(message);
      return;
    }
    const tournament = message.type === "snapshot" ? message.view.table.tournament : null;
    if (tournament && !unfollow) {
      const strip = h("div", { class: "tournament-strip", role: "status" });
      head.after(strip);
      above.observe(strip);
      unfollow = followTournament(tournament, strip, ctx);
    }
    onMessage(message);
  });
  const flush = () => handLog.flush();
  // The felt leaves the action bar its room in the window: measured again when the window
  // or what stands above the felt (the head, a tournament's strip, a home game's panel) changes.
  window.addEventListener("resize", refit);
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", unlockSound, { once: true });
  window.addEventListener("pagehide", flush);
  // The wager form tells the page what it placed, for Repeat bets.
  el.addEventListener("wagers", (event) => {
    sessionStorage.setItem(BETS_KEY, JSON.stringify(event.detail));
  });
  el.addEventListener("repeat-bets", () => repeatBets(false));
  return () => {
    flush();
    clearTimeout(noticeTimer);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", refit);
    above.disconnect();
    window.removeEventListener("pagehide", flush);
    unmarkTab();
    unwatch();
    if (unfollow) unfollow();
    if (home) home.stop();
  };
}

