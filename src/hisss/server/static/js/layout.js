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

/** Pixels between the rows of snakes, and between two columns of them. */
export const ROW_GAP = 10;
export const COLUMN_GAP = 18;

/** The width of the longest of `rows` with cards `size` pixels wide. */
export function widestRow(rows, size) {
  return Math.max(0, ...rows.map((r) => r.cards * size + r.ghosts * (size + GHOST_EXTRA) + r.extra));
}

/**
 * The largest card width, from `max` down to `min` in steps of 2, at which every row fits:
 * `rows` is a list of {cards, ghosts, extra} (cards and placements in the row, other pixels),
 * each row one line, in `columns` columns side by side across `width` pixels, all of them in
 * `height` pixels (a card is 2/3 as high as wide; a row with placements is 10 pixels higher for
 * their frames). `min` when nothing fits.
 */

export function cardWidthFor(rows, width, height, { min = 36, max = 170, columns = 1 } = {}) {
  const across = (width - (columns - 1) * COLUMN_GAP) / columns;
  const widest = (size) => widestRow(rows, size);
  const tall = (size) => {
    let total = 0;
    for (let i = 0; i < rows.length; i += columns) {
      const line = rows.slice(i, i + columns);
      total += size * (2 / 3) + (line.some((r) => r.ghosts) ? 10 : 0) + ROW_GAP;
    }
    return total - ROW_GAP;
  };
  for (let size = max; size > min; size -= 2) {
    if (widest(size) <= across && tall(size) <= height) return size;
  }
  return min;
}

/**
 * The cards' width and the number of columns of snakes (1 to 3) that give the largest cards:
 * a wide table of short snakes sets them side by side.
 */
export function tableLayout(rows, width, height, { min = 36, max = 170 } = {}) {
  let best = { size: cardWidthFor(rows, width, height, { min, max }), columns: 1 };
  for (const columns of [2, 3]) {
    if (rows.length < columns) break;
    const size = cardWidthFor(rows, width, height, { min, max, columns });
    if (size > best.size + 4) best = { size, columns };
  }
  return best;
}
