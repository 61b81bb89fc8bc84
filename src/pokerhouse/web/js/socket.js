// The one websocket to the room: the lobby and any number of tables over it.
//
// Per table it keeps the last sequence number seen. Events must come gapless
// (a placeholder, `event: null`, still moves the number on); an event from
// the past is a duplicate and dropped, one from beyond the next number means
// frames were lost and a `resume` asks for them again. When the socket drops
// it reconnects with a growing, jittered back-off, shows "reconnecting…", and
// sends `resume {table, since}` for every table it follows, so the server
// replays what was missed or, if it no longer can (a restart), sends a fresh
// `snapshot`. A frame holds one message (a JSON object) or one step's messages
// (a JSON array of them, handled in order).

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8000;

export class RoomSocket {
  constructor(url = defaultUrl()) {
    this.url = url;
    this.ws = null;
    this.state = "closed"; // closed | connecting | open | reconnecting
    this.user = null;
    this.tables = new Map(); // table id -> {seq, listeners: Set}
    this.lobbyListeners = new Set();
    this.tournaments = new Map(); // tournament id -> Set of listeners
    this.statusListeners = new Set();
    this.globalListeners = new Set();
    this.attempts = 0;
    this.timer = null;
    this.wanted = false;
  }

  /** Open the socket (and keep it open until close()). */
  connect() {
    this.wanted = true;
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) return;
    this.setState(this.attempts ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempts = 0;
      this.setState("open");
      if (this.lobbyListeners.size) this.send({ type: "lobby" });
      for (const [table, entry] of this.tables) this.follow(table, entry);
      for (const tournament of this.tournaments.keys()) {
        this.send({ type: "watch_tournament", tournament });
      }
    });
    ws.addEventListener("message", (message) => this.receive(message.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.wanted) {
        this.setState("closed");
        return;
      }
      this.attempts += 1;
      this.setState("reconnecting");
      const ceiling = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** (this.attempts - 1));
      const delay = ceiling / 2 + Math.random() * (ceiling / 2);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Close for good (no reconnect); a new connect() starts over, e.g. after login. */
  close() {
    this.wanted = false;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  /** Close and open again: the server reads the session cookie only at the handshake. */
  restart() {
    const old = this.ws;
    this.ws = null;
    this.attempts = 0;
    if (old) old.close();
    this.connect();
  }

  setState(state) {
    this.state = state;
    for (const listener of this.statusListeners) listener(state);
  }

  /** Call `listener(state)` on every connection state change; returns the unsubscribe. */
  onStatus(listener) {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Call `listener(message)` for messages of no table (`hello`, `error` without a table). */
  onMessage(listener) {
    this.globalListeners.add(listener);
    return () => this.globalListeners.delete(listener);
  }

  /** Send a message if the socket is open; false when it is not (the caller tells the user). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Follow the lobby: `listener(tables)` now and on every change. */
  lobby(listener) {
    this.lobbyListeners.add(listener);
    if (this.lobbyListeners.size === 1) this.send({ type: "lobby" });
    return () => this.lobbyListeners.delete(listener);
  }

  /**
   * Follow tournament `tournament`: `listener(message)` gets each `tournament` message
   * (its lobby line now, then with the news of every step). Returns the unfollow function.
   */
  tournament(tournament, listener) {
    let listeners = this.tournaments.get(tournament);
    if (!listeners) {
      listeners = new Set();
      this.tournaments.set(tournament, listeners);
    }
    listeners.add(listener);
    this.send({ type: "watch_tournament", tournament });
    return () => {
      listeners.delete(listener);
      if (!listeners.size) {
        this.tournaments.delete(tournament);
        this.send({ type: "watch_tournament", tournament, on: false });
      }
    };
  }

  /**
   * Follow table `table`: `listener(message)` gets its snapshot, events, private,
   * clock, window, chat, ack and error messages, in order. Returns the unwatch function.
   */
  watch(table, listener) {
    let entry = this.tables.get(table);
    if (!entry) {
      entry = { seq: null, listeners: new Set(), resuming: false };
      this.tables.set(table, entry);
      entry.listeners.add(listener);
      this.follow(table, entry);
    } else {
      entry.listeners.add(listener);
      // A second view of a table already followed: ask for a snapshot of its own.
      entry.seq = null;
      this.follow(table, entry);
    }
    return () => {
      entry.listeners.delete(listener);
      if (!entry.listeners.size) {
        this.tables.delete(table);
        this.send({ type: "unwatch", table });
      }
    };
  }

  follow(table, entry) {
    entry.resuming = entry.seq !== null;
    // `views`: the server sends the table's view again after each step it tells.
    if (entry.seq === null) this.send({ type: "watch", table, views: true });
    else this.send({ type: "resume", table, since: entry.seq, views: true });
  }

  /**
   * One websocket text frame: a JSON object (one message) or a JSON array of
   * messages (one step of the room, sent in one write), handled in order.
   */
  receive(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const message of messages) {
      if (!message || typeof message !== "object" || Array.isArray(message)) continue;
      try {
        this.handle(message);
      } catch (error) {
        console.error(error); // one message's trouble must not lose the rest of the step
      }
    }
  }

  /**
   * Ask table `table` again for every event after `since` (kept events end
   * there, e.g. after a reload): they come as if the socket had dropped.
   */
  rewind(table, since) {
    const entry = this.tables.get(table);
    if (!entry || !Number.isInteger(since)) return;
    entry.seq = since;
    entry.resuming = true;
    this.send({ type: "resume", table, since, views: true });
  }

  handle(message) {
    if (message.type === "hello") this.user = message.user;
    if (message.type === "lobby") {
      for (const listener of this.lobbyListeners) listener(message.tables);
      return;
    }
    if (message.type === "tournament") {
      for (const listener of this.tournaments.get(message.tournament) || []) listener(message);
      return;
    }
    const entry = message.table === undefined ? null : this.tables.get(message.table);
    if (!entry) {
      for (const listener of this.globalListeners) listener(message);
      return;
    }
    if (message.type === "snapshot") {
      entry.seq = message.seq;
      entry.resuming = false;
    } else if (message.type === "event") {
      if (entry.seq !== null && message.seq <= entry.seq) return; // seen already
      if (entry.seq !== null && message.seq > entry.seq + 1) {
        // Frames were lost: ask again from the last one seen; drop this one.
        if (!entry.resuming) {
          entry.resuming = true;
          this.send({ type: "resume", table: message.table, since: entry.seq, views: true });
        }
        return;
      }
      entry.seq = message.seq;
      entry.resuming = false;
    }
    for (const listener of entry.listeners) listener(message);
  }
}

function defaultUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
