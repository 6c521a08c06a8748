// The advice of the board (issue 36): what the rules will report at the
// end of the step as things stand, said while the seat can still put it
// right, and the commands it has left this turn (the orders it may still
// write, the points it may still spend). Both come from the server, for
// this seat, in the board's advice; this module only draws them, above
// the tabs of the panel, so that they stand beside the order form and the
// command panel alike. Each warning names its piece: a tap selects it.

import { h, fill } from './dom.js';

/**
 * @typedef {{rule:string, piece?:string, text:string}} Warning
 * @typedef {{rule:string, what:string, left:number, of:number}} Left
 * @typedef {{warnings?:Warning[], left?:Left[]}} Advice
 */

/**
 * The kind of a piece of the board's state, for a selection: a unit, a
 * general (or a leader on a hex map), or none if the seat does not see it.
 * @param {any} state @param {string} id
 */
function kindOf(state, id) {
  if (!id || !state) return '';
  if ((state.units || []).some((u) => u.id === id)) return 'unit';
  if ([...(state.generals || []), ...(state.leaders || [])].some((g) => g.id === id)) return 'general';
  return '';
}

/** The advice box, made once at the top of the panel, before its tabs. */
function box() {
  let el = document.getElementById('advice');
  if (el) return el;
  el = h('section#advice.advice', { 'aria-label': 'Before you are ready', 'aria-live': 'polite' });
  el.hidden = true;
  const tabs = document.querySelector('.panel .tabs');
  if (tabs) tabs.before(el);
  else document.body.append(el);
  return el;
}

/**
 * Draws the board's advice, or hides the box when there is none.
 * @param {any} board the seat's board
 * @param {{name:(id:string)=>string, select:(ref:{kind:string,id:string})=>void}} hooks
 */
export function renderAdvice(board, hooks) {
  const el = box();
  /** @type {Advice} */
  const a = (board && board.advice) || {};
  const warnings = a.warnings || [];
  const left = a.left || [];
  if (!warnings.length && !left.length) { el.hidden = true; fill(el); return; }
  const parts = [];
  if (left.length) {
    parts.push(h('ul.advice-left', null, ...left.map((l) => h('li', { dataset: { rule: l.rule }, title: l.rule },
      h('b', { text: `${l.left} of ${l.of}` }), ` ${l.what}`))));
  }
  if (warnings.length) {
    parts.push(h('p.advice-head', { text: warnings.length === 1 ? 'As things stand, the end of the step will report:' : `As things stand, the end of the step will report ${warnings.length} things:` }));
    parts.push(h('ul.advice-warnings', null, ...warnings.map((w) => {
      // The sentence names its piece: tapping it selects the piece.
      const kind = kindOf(board.state, w.piece || '');
      return h('li.warning', { dataset: { rule: w.rule, piece: w.piece || '' } },
        kind ? h('button.link', { type: 'button', text: w.text, title: `Select ${hooks.name(w.piece || '')}`, on: { click: () => hooks.select({ kind, id: w.piece || '' }) } })
          : h('span', { text: w.text }));
    })));
  }
  fill(el, ...parts);
  el.hidden = false;
}
