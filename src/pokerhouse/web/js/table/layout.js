// Where each seat sits at the felt, for 2 to 10 seats, and the felt's height.
//
// A ring table's seats go round a wide oval, clockwise from the viewer's own
// seat at the bottom: a row along the top rail, one along the bottom, one or
// two at each end. Each slot is a point in % of the felt and the side where
// the middle of the table lies from it (`toward`): the seat's bet chips go
// there, between the seat and the pot, never on a neighbour. The sizes of
// everything on the felt are in `em` of a font that follows the felt's size
// (css/room.css), so a layout that fits at one size fits at every size.
// A phone stacks the seats in two columns instead (css/room.css), in the
// order of the slots.

/**
 * Ring slots by seat count: [x %, y %, toward, nudge], the viewer's seat first, then
 * clockwise. `nudge` (em, default 0) slides the bet chips along the seat's side, away
 * from a neighbour's.
 */
const RING = {
  2: [[50, 83, "up"], [50, 17, "down"]],
  3: [[50, 83, "up"], [22, 22, "right"], [78, 22, "left"]],
  4: [[50, 83, "up"], [10, 50, "right"], [50, 17, "down"], [90, 50, "left"]],
  5: [[50, 83, "up"], [11, 60, "right"], [30, 17, "down"], [70, 17, "down"], [89, 60, "left"]],
  6: [[50, 83, "up"], [11, 70, "right"], [13, 27, "right"], [50, 17, "down"], [87, 27, "left"], [89, 70, "left"]],
  7: [[50, 83, "up"], [17, 81, "up", 1], [9, 42, "right"], [31, 17, "down"], [69, 17, "down"], [91, 42, "left"], [83, 81, "up", -1]],
  8: [[50, 83, "up"], [23, 83, "up"], [9, 50, "right"], [23, 17, "down"], [50, 17, "down"], [77, 17, "down"], [91, 50, "left"], [77, 83, "up"]],
  9: [[50, 83, "up"], [26, 83, "up", 1], [8, 62, "right", -1.2], [12, 26, "right", 1.5], [36, 17, "down", 1], [64, 17, "down", -1], [88, 26, "left", 1.5], [92, 62, "left", -1.2], [74, 83, "up", -1]],
  10: [[50, 83, "up"], [28, 83, "up", 1], [8, 66, "right", -1.4], [9, 31, "right", 1.6], [29, 17, "down", 1.2], [50, 17, "down"], [71, 17, "down", -1.2], [91, 31, "left", 1.6], [92, 66, "left", -1.4], [72, 83, "up", -1]],
};

/**
 * Where each seat of a `size`-seat table of `game` sits: one entry per seat
 * index, {x, y} in % of the felt, `toward` (up, down, left, right: the side of
 * the pot, where its bet goes), `nudge` and `around` (0 for the viewer's
 * `first` seat, then 1, 2, ... clockwise). A Casino Hold'em table's boxes stand in a row
 * facing the dealer (css/room.css places them), in the order of their numbers.
 */
export function seatSpots(size, game, first = 0) {
  const spots = [];
  const slots = RING[size] || RING[Math.min(10, Math.max(2, size))];
  for (let seat = 0; seat < size; seat += 1) {
    if (game === "casino-holdem") {
      spots.push({ x: 0, y: 0, toward: "up", nudge: 0, around: seat });
      continue;
    }
    const around = (seat - first + size) % size;
    const [x, y, toward, nudge = 0] = slots[around % slots.length];
    spots.push({ x, y, toward, nudge, around });
  }
  return spots;
}

/**
 * Keep the felt and the action bar under it in the window: the felt is told
 * the window's height below its top (`--room`), and css/room.css takes the
 * action bar's room from it. Called when what is above the felt may have
 * changed and when the window does.
 */
export function fitFelt(felt) {
  if (!felt.isConnected) return;
  const top = felt.getBoundingClientRect().top + window.scrollY;
  felt.style.setProperty("--room", `${Math.max(0, Math.round(window.innerHeight - top))}px`);
}
