// The current hand's events, kept in the tab's sessionStorage, so a reload
// (or a visit to another page and back) finds the hand's log as it was.
//
// One record per table: the hand's number and its events from
// `table_hand_started` on, each with its sequence number. After a reload the
// page reads it back when the server's snapshot shows the same hand, writes
// the log again from it, and asks the server (`resume`) only for the events
// after the last one kept.

const MOST = 600;
const key = (table) => `pokerhouse.handlog.${table}`;

export class HandLog {
  constructor(table) {
    this.table = table;
    this.hand = null;
    this.events = [];
    this.timer = null;
  }

  /** What was kept for this table: `{hand, events: [{seq, event}]}`, or null. */
  load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(key(this.table)) || "null");
      if (saved && Array.isArray(saved.events)) return saved;
    } catch {
      // A damaged record is forgotten.
    }
    return null;
  }

  /** Start keeping from `saved` (what load() gave) when it is still the table's hand. */
  adopt(saved) {
    this.hand = saved.hand;
    this.events = saved.events.slice(-MOST);
  }

  /** Keep event `event` numbered `seq`: a new hand starts a new record. */
  add(event, seq) {
    if (!event) return;
    if (this.events.length && seq <= this.events[this.events.length - 1].seq) return;
    if (event.type === "table_hand_started") {
      this.hand = event.number;
      this.events = [];
    }
    if (this.hand === null) return;
    this.events.push({ seq, event });
    if (this.events.length > MOST) this.events.splice(0, this.events.length - MOST);
    this.later();
  }

  later() {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), 250);
  }

  /** Write the record now (the page is left or hidden). */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.hand === null) return;
    try {
      sessionStorage.setItem(key(this.table), JSON.stringify({ hand: this.hand, events: this.events }));
    } catch {
      // Storage full or refused: the log is only lost on a reload.
    }
  }
}
