// The turn bar's words (issue 36): whom the game waits for and since when,
// why a seat cannot act, what Take back withdraws, the umpire's question
// before he ends a step, and the notice every seat is given when he does.
// Every fact comes from the server (the game's waiting, since, why and
// undo, and the step-ended event); the page only words it.

/**
 * A list of names: "A", "A and B", "A, B and C".
 * @param {string[]} names
 */
export function listed(names) {
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * How long ago a time was, in words: "just now", "5 min", "2 h 10 min".
 * @param {number} ms
 */
export function ago(ms) {
  const min = Math.floor(Math.max(0, ms) / 60000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

/**
 * "Waiting for the British since 16:02 (5 min)", or '' when nobody is
 * waited for.
 * @param {any} info the game's info
 * @param {(id:string)=>string} sideName
 * @param {number} now the time now, in ms
 */
export function waitingLine(info, sideName, now) {
  const waiting = info.waiting || [];
  if (!waiting.length || info.over) return '';
  let line = `Waiting for ${listed(waiting.map(sideName))}`;
  const since = info.since ? Date.parse(info.since) : NaN;
  if (!Number.isNaN(since)) {
    const d = new Date(since);
    const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    line += ` since ${hm} (${ago(now - since)})`;
  }
  return line;
}

/**
 * The umpire's question before he ends the step: what it does and who is
 * not ready.
 * @param {any} info
 * @param {(id:string)=>string} sideName
 */
export function endQuestion(info, sideName) {
  const waiting = info.waiting || [];
  let q = `End the ${info.step} step for everyone? Every seat is told.`;
  if (waiting.length) q += ` ${listed(waiting.map(sideName))} ${waiting.length === 1 ? 'is' : 'are'} not ready.`;
  return q;
}

/**
 * The notice of a step-ended event: "The umpire ended the write step;
 * the French were not ready."
 * @param {any} e the event
 * @param {(id:string)=>string} sideName
 */
export function endedNotice(e, sideName) {
  const waited = (e.data && e.data.waited) || [];
  let n = `The umpire ended the ${e.step || 'current'} step`;
  if (waited.length) n += `; ${listed(waited.map(sideName))} ${waited.length === 1 ? 'was' : 'were'} not ready`;
  return `${n}.`;
}
