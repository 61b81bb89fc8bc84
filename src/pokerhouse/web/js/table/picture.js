// The hand as it last stood: kept by the page so the showdown stays on the felt.
//
// The table is drawn from the server's snapshots, but once a hand is over
// the next snapshot has no hand at all (`hand: null`). The page therefore
// keeps its own picture of the hand: copied from each snapshot of it, then
// brought up to date by the events that follow (the rest of the board, the
// hands shown, the pots awarded, the dealer's hand, each box's result). Every
// card in it came from the server: a snapshot or an event that showed it.
// The picture is drawn in place of the empty table until the next hand starts.

/** Fill a seat's unknown cards from cards it showed (in deal order). */
export function reveal(cards, shown) {
  if (!shown || !shown.length) return [...cards];
  if (cards.length !== shown.length) return [...shown];
  return cards.map((card, index) => card || shown[index]);
}

function blankSeat() {
  return { player: null, cards: [], faceUp: [], folded: false, shown: false, description: null, mucked: false, revealed: new Set() };
}

export class HandPicture {
  constructor() {
    this.clear(null);
  }

  /** Forget everything: a new hand `number` (or none). */
  clear(number) {
    this.number = number;
    this.seq = -1; // the snapshot the picture was last copied from
    this.seats = new Map();
    this.board = [];
    this.liveBoard = 0; // board cards seen while the hand was live
    this.dealer = { cards: [], description: null, qualifies: null, revealed: false };
    this.awards = [];
    this.boxes = new Map();
    this.bonuses = new Map();
    this.net = new Map();
    this.ended = false;
    this.voided = false;
    this.endedAt = null;
    this.reveals = 0; // hands turned up so far, in order: the felt turns them one after another
  }

  seat(index) {
    if (!this.seats.has(index)) this.seats.set(index, blankSeat());
    return this.seats.get(index);
  }

  /** Copy a snapshot `view` whose hand is running (numbered `seq`). */
  copy(view, seq) {
    const hand = view.hand;
    if (!hand) return;
    if (this.number !== hand.number) this.clear(hand.number);
    this.seq = seq;
    this.board = (hand.board || []).filter(Boolean);
    this.liveBoard = this.board.length;
    const dealer = hand.facts && hand.facts.dealer_cards;
    if (dealer && dealer.length) this.dealer.cards = [...dealer];
    if (hand.facts && hand.facts.dealer_qualifies !== undefined && hand.facts.dealer_qualifies !== null) {
      this.dealer.qualifies = hand.facts.dealer_qualifies;
    }
    view.seats.forEach((entry, index) => {
      if (!entry || !entry.in_hand) return;
      const seat = this.seat(index);
      seat.player = entry.player;
      seat.cards = reveal(entry.cards || [], seat.shown ? seat.cards : []);
      seat.faceUp = [...(entry.face_up || [])];
      seat.folded = entry.folded;
    });
  }

  /**
   * Apply one event (numbered `seq`); true when the picture changed. Events
   * the last copied snapshot already holds (a replay after a reload) are skipped.
   */
  apply(event, seq) {
    if (!event) return false;
    if (event.type === "table_hand_started") {
      if (seq <= this.seq) return false;
      this.clear(event.number);
      this.seq = -1;
      return true;
    }
    if (seq !== undefined && seq <= this.seq) return false;
    if (this.number === null) return false;
    const seat = typeof event.seat === "number" && event.seat >= 0 ? this.seat(event.seat) : null;
    switch (event.type) {
      case "cards_dealt":
        if (event.seat === -1) this.dealer.cards.push(...event.cards);
        else if (seat) {
          seat.cards.push(...event.cards);
          seat.faceUp.push(...event.face_up);
        }
        return true;
      case "board_dealt":
        this.board.push(...event.cards);
        return true;
      case "action_taken":
        if (seat && event.action && event.action.kind === "fold") seat.folded = true;
        return true;
      case "cards_looked":
        if (seat && event.cards && event.cards.some(Boolean)) seat.cards = reveal(seat.cards, event.cards);
        return true;
      case "sideshow_compared":
        for (const [who, cards] of [[event.asker, event.asker_cards], [event.target, event.target_cards]]) {
          if (cards && cards.some(Boolean)) this.seat(who).cards = reveal(this.seat(who).cards, cards);
        }
        this.seat(event.loser).folded = true;
        return true;
      case "hand_shown":
        if (event.seat === -1) {
          this.dealer.cards = reveal(this.dealer.cards, event.cards);
          this.dealer.description = event.description || null;
          this.dealer.revealed = true;
          this.dealer.order = this.reveals++;
        } else if (seat) {
          const before = seat.cards;
          seat.cards = reveal(seat.cards, event.cards);
          seat.cards.forEach((card, index) => {
            if (card && !before[index]) seat.revealed.add(card);
          });
          seat.faceUp = seat.cards.map(() => true);
          seat.shown = true;
          seat.order = this.reveals++;
          seat.description = event.description || null;
        }
        return true;
      case "hand_mucked":
        if (seat) seat.mucked = true;
        return true;
      case "pot_awarded":
        this.awards.push({
          pot: event.pot,
          amount: event.amount,
          winners: [...event.winners],
          shares: [...event.shares],
          description: event.description || null,
        });
        return true;
      case "dealer_qualified":
        this.dealer.qualifies = event.qualifies;
        if (event.description && !this.dealer.description) this.dealer.description = event.description;
        return true;
      case "box_settled":
        this.boxes.set(event.seat, { outcome: event.outcome, net: event.net });
        return true;
      case "bonus_settled":
        this.bonuses.set(event.seat, { won: event.won, paid: event.paid, stake: event.stake });
        return true;
      case "table_hand_ended":
        event.seats.forEach((where, index) => this.net.set(where, event.net[index]));
        this.ended = true;
        this.endedAt = performance.now();
        return true;
      case "hand_voided":
        this.voided = true;
        this.ended = true;
        this.endedAt = performance.now();
        return true;
      default:
        return false;
    }
  }

  /** Whether the finished hand should stand in for the empty table of `view`. */
  showsFor(view) {
    return this.ended && !this.voided && view.hand === null && this.number !== null && this.number === view.hands_played;
  }

  /** Board cards dealt after the betting (the run-out at the showdown). */
  get runOut() {
    return Math.max(0, this.board.length - this.liveBoard);
  }

  /**
   * The table `view` with the finished hand drawn in: each seat of the hand
   * with its last cards (turned up where shown), the board, the dealer's cards.
   * `mine`: the viewer's seats, whose folded cards stay in sight.
   */
  drawnView(view, mine = new Set()) {
    const seats = view.seats.map((entry, index) => {
      const seat = this.seats.get(index);
      if (!entry || !seat || (seat.player !== null && seat.player !== entry.player)) return entry;
      // A folded or mucked hand is gone from the felt, except to its own player.
      const gone = (seat.mucked || (seat.folded && !seat.shown)) && !mine.has(index);
      return {
        ...entry,
        cards: gone ? [] : seat.cards,
        face_up: seat.faceUp,
        folded: seat.folded,
        in_hand: true,
        all_in: false,
        bet: 0,
      };
    });
    return {
      ...view,
      seats,
      hand: {
        number: this.number,
        street: null,
        board: this.board,
        pot: 0,
        pots: [],
        to_act: null,
        facts: { dealer_cards: this.dealer.cards, dealer_qualifies: this.dealer.qualifies, bring_in: null },
        mine: {},
        over: true,
      },
    };
  }
}
