// The game's state as the page keeps it: pure functions over the server's messages (tested
// without a browser).

/**
 * The log of a state sent without one: it follows the state before (the same version again, or
 * the next one), so the log is the one before with the new step added (draws are not in it).
 */
export function followLog(before, message) {
  const log = before ? before.log : [];
  const event = message.last_event;
  const next = before && message.version === before.version + 1;
  return next && event && event.kind !== "draw" ? [...log, event] : log;
}

/** Whether `message` brings a step the page has not shown yet (after the state `before`). */
export function isFresh(before, message) {
  const event = message.last_event;
  return Boolean(event && before && (!before.last_event || event.seq > before.last_event.seq));
}
