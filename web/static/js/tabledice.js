// Table dice: in a game whose dice are thrown at the table (or mixed),
// the server refuses a command whose roll has no dice yet, with the code
// "dice" and what it needs (the table, what the roll is for, how many
// dice of how many sides). The page asks the player for the faces thrown
// and sends the same command again with them, as often as the server
// asks. The page computes nothing: it shows the faces a die has (low to
// low + sides - 1, as the server says) and passes on what was tapped.

import { h } from './dom.js';

/** The most times one command may ask for dice before the page gives up. */
export const MAX_ASKS = 64;

/**
 * The dice were not thrown (the player cancelled the picker): nothing
 * was sent. A quiet error: its message is a short sentence for the banner.
 */
export class DiceCancelled extends Error {
  constructor() {
    super('No dice were given, so the command was not sent.');
    this.name = 'DiceCancelled';
    this.code = 'cancelled';
  }
}

/**
 * @typedef {{table:string, for:string, dice:string, sides:number, low:number,
 *   given:number, more:number, title?:string, name?:string}} Need
 * @typedef {{table:string, for:string, faces:number[]}} Given
 */

/**
 * Sends cmd; while the server answers that a roll is to be thrown at the
 * table, asks pick for the faces and sends cmd again with every die given
 * so far. A pool asked stage by stage (need.given > 0) gets its faces
 * appended to the entry already given for it.
 * @template T
 * @param {(cmd:any) => Promise<T>} send
 * @param {any} cmd a command object
 * @param {(need:Need) => Promise<number[]>} pick asks for the faces of a roll
 * @param {number} [max] the most asks
 * @returns {Promise<T>}
 */
export async function withTableDice(send, cmd, pick, max = MAX_ASKS) {
  /** @type {Given[]} */
  const given = Array.isArray(cmd.dice) ? cmd.dice.map((d) => ({ ...d, faces: [...d.faces] })) : [];
  for (let asks = 0; ; asks++) {
    try {
      return await send(given.length ? { ...cmd, dice: given } : cmd);
    } catch (err) {
      const need = err && err.code === 'dice' ? err.need : null;
      if (!need || !pick || asks >= max) throw err;
      const faces = await pick(need);
      addFaces(given, need, faces);
    }
  }
}

/**
 * Adds the faces thrown for need to the dice given: a new entry, or, for
 * a roll that asks for more after need.given dice, appended to the entry
 * of that table and subject holding exactly that many.
 * @param {Given[]} given changed in place
 * @param {Need} need
 * @param {number[]} faces
 */
export function addFaces(given, need, faces) {
  const old = need.given > 0 ? given.find((g) => g.table === need.table && g.for === need.for && g.faces.length === need.given) : null;
  if (old) old.faces.push(...faces);
  else given.push({ table: need.table, for: need.for, faces: [...faces] });
}

/**
 * The words of the picker's heading: "Throw 2d6 for Ney — Order delay".
 * @param {Need} need
 */
export function askWords(need) {
  const what = need.given > 0 ? `${need.more} more d${need.sides}` : need.dice || `${need.more}d${need.sides}`;
  const who = need.name || need.for;
  return `Throw ${what} for ${who}${need.title ? ` — ${need.title}` : ''}`;
}

/** The picker on the page, one at a time. */
let queue = Promise.resolve();

/**
 * Asks the player for the faces of a roll thrown at the table: a dialog
 * with a row of face buttons for each die (or digits typed on a
 * keyboard), OK once every die has a face, and Cancel. Resolves with the
 * faces in order; rejects with DiceCancelled.
 * @param {Need} need
 * @returns {Promise<number[]>}
 */
export function pickDice(need) {
  const run = queue.then(() => showPicker(need));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * @param {Need} need
 * @returns {Promise<number[]>}
 */
function showPicker(need) {
  return new Promise((resolve, reject) => {
    const n = Math.max(1, need.more | 0);
    const faces = [];
    for (let f = need.low; f < need.low + need.sides; f++) faces.push(f);
    /** @type {(number|null)[]} */
    const chosen = new Array(n).fill(null);
    let current = 0;
    let typed = '';
    let typedTimer = 0;
    const rows = [];
    const ok = h('button.btn.primary', { type: 'submit', dataset: { dice: 'ok' }, text: 'OK', disabled: true });
    const cancel = h('button.btn', { type: 'button', dataset: { dice: 'cancel' }, text: 'Cancel' });
    const heading = h('h3#dice-title', { text: askWords(need) });
    const status = h('p.dice-status.muted.small', { 'aria-live': 'polite' });
    const set = (die, face) => {
      chosen[die] = face;
      for (const b of rows[die].querySelectorAll('button')) {
        const on = Number(b.dataset.face) === face;
        b.setAttribute('aria-pressed', String(on));
        b.classList.toggle('on', on);
      }
      const next = chosen.findIndex((c) => c === null);
      current = next < 0 ? die : next;
      ok.disabled = next >= 0;
      status.textContent = next >= 0
        ? `${n > 1 ? `Die ${next + 1} of ${n}: ` : ''}tap its face, or type it.`
        : `Thrown: ${chosen.join(', ')}. Press OK to send.`;
      if (next < 0) ok.focus();
    };
    for (let d = 0; d < n; d++) {
      rows.push(h('div.dice-row', { role: 'group', 'aria-label': n > 1 ? `Die ${d + 1}` : 'The die', dataset: { die: d } },
        n > 1 ? h('span.dice-label', { text: `${d + 1}` }) : null,
        ...faces.map((f) => h('button.dice-face', {
          type: 'button', dataset: { face: f }, 'aria-pressed': 'false', text: String(f),
          on: { click: () => set(d, f) },
        }))));
    }
    const form = h('form.dice-form', { method: 'dialog' },
      heading,
      h('p.muted.small', { text: n > 1 ? `Throw ${n} dice at the table and tap what each shows.` : 'Throw the die at the table and tap what it shows.' }),
      ...rows, status,
      h('div.row.dice-actions', null, ok, cancel));
    const dialog = /** @type {HTMLDialogElement} */ (h('dialog.dice-picker', { 'aria-labelledby': 'dice-title', dataset: { table: need.table, for: need.for } }, form));
    let done = false;
    const finish = (faces) => {
      if (done) return;
      done = true;
      clearTimeout(typedTimer);
      if (dialog.open) dialog.close();
      dialog.remove();
      if (faces) resolve(faces); else reject(new DiceCancelled());
    };
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (chosen.every((c) => c !== null)) finish(/** @type {number[]} */ (chosen.slice()));
    });
    cancel.addEventListener('click', () => finish(null));
    dialog.addEventListener('cancel', (ev) => { ev.preventDefault(); finish(null); }); // Escape
    // Digits typed: a face of the die being thrown (a two-digit face
    // waits a moment for its second digit; on a d10 read 1-10, 0 is 10).
    const commit = () => {
      clearTimeout(typedTimer);
      let f = Number(typed);
      typed = '';
      if (!faces.includes(f) && f === 0 && faces.includes(10)) f = 10;
      if (faces.includes(f)) set(current, f);
    };
    dialog.addEventListener('keydown', (ev) => {
      if (/^[0-9]$/.test(ev.key)) {
        ev.preventDefault();
        typed += ev.key;
        const longer = faces.some((f) => String(f).length > typed.length && String(f).startsWith(typed));
        if (longer) { clearTimeout(typedTimer); typedTimer = setTimeout(commit, 700); } else commit();
      } else if (ev.key === 'Backspace') {
        ev.preventDefault();
        const last = chosen.findLastIndex((c) => c !== null);
        if (last >= 0) {
          chosen[last] = null;
          for (const b of rows[last].querySelectorAll('button')) { b.setAttribute('aria-pressed', 'false'); b.classList.remove('on'); }
          current = last;
          ok.disabled = true;
          status.textContent = `${n > 1 ? `Die ${last + 1} of ${n}: ` : ''}tap its face, or type it.`;
        }
      }
    });
    document.body.append(dialog);
    status.textContent = `${n > 1 ? 'Die 1: ' : ''}tap its face, or type it.`;
    if (typeof dialog.showModal === 'function') dialog.showModal(); else dialog.setAttribute('open', '');
    /** @type {HTMLElement} */ (rows[0].querySelector('button')).focus();
  });
}

/**
 * Shows where a game's dice are thrown in the header's chip: hidden when
 * the server draws them.
 * @param {HTMLElement} chip
 * @param {{dice?:string}} info
 */
export function showDiceMode(chip, info) {
  const mode = info.dice || 'server';
  chip.hidden = mode !== 'table' && mode !== 'mixed';
  chip.dataset.dice = mode;
  chip.textContent = chip.hidden ? '' : mode === 'table' ? 'Table dice' : 'Mixed dice';
  chip.title = chip.hidden ? '' : mode === 'table'
    ? 'Every roll is thrown at the table: when a command needs dice, the page asks for the faces thrown and orderly keeps the books.'
    : 'Open rolls are thrown at the table and their faces typed in; the secret rolls (the umpire\'s and each side\'s own) are drawn by the server.';
}

/**
 * The game facts' line for the dice, when they are thrown at the table.
 * @param {{dice?:string}} info
 * @returns {[string, string][]}
 */
export function diceFacts(info) {
  if (info.dice === 'table') return [['Dice', 'table: every roll thrown at the table']];
  if (info.dice === 'mixed') return [['Dice', 'mixed: open rolls at the table, secret ones by the server']];
  return [];
}
