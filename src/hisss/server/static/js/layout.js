// How big the table's cards are: pure arithmetic over the rows of a table and the room it has,
// shared by the game and the replays (and tested without a browser).

/**
 * The smallest a table card may get, in CSS pixels: 36 on a phone (under 600 px wide), 48 on a
 * tablet, 64 on a wide screen; colour-blind cards are 12 larger, for their symbols and letters.
 * Below it a snake keeps its size and the table scrolls sideways (the page never does).
 */
export function smallestCard(width, colourBlind = false) {
  const min = width < 600 ? 36 : width < 1000 ? 48 : 64;
  return min + (colourBlind ? 12 : 0);
}

/** A ghost (a placement's button) is this much wider than its card: padding, border, margin. */
export const GHOST_EXTRA = 16;
/** Room a row needs besides its cards: the snake's number and the gap beside it. */
export const ROW_EXTRA = 40;

/**
 * The largest card width, from `max` down to `min` in steps of 2, at which every row fits:
 * `rows` is a list of {cards, ghosts, extra} (cards and placements in the row, other pixels),
 * each row one line `width` pixels wide, all the rows one above the other in `height` pixels
 * (a card is 2/3 as high as wide, with `gap` pixels between rows). `min` when nothing fits.
 */
export function cardWidthFor(rows, width, height, { min = 36, max = 170, gap = 14 } = {}) {
  const widest = (size) =>
    Math.max(0, ...rows.map((r) => r.cards * size + r.ghosts * (size + GHOST_EXTRA) + r.extra));
  for (let size = max; size > min; size -= 2) {
    if (widest(size) <= width && rows.length * (size * (2 / 3) + GHOST_EXTRA + gap) <= height)
      return size;
  }
  return min;
}
