// The page module of the tiny rule set, a rule set used only in tests: the
// shared table map, and a card for the selected unit with a Move control
// that sends the move to the point the player gives. The reach shown is
// the server's (the board's extra); the page checks no rule, the server
// refuses a move too long.

import { h, fill, pt, tenth } from '../dom.js';
import { MapView } from '../map.js';

/** The card of a unit: where it stands, its reach and, when offered, a move. */
function unitCard(u, c) {
  const reach = (c.board.extra || {}).reach;
  const parts = [
    h(`h4.c-${c.colour(u.side)}`, null, h('span.swatch'), c.name(u.id)),
    h('p', { dataset: { at: u.id }, text: `at ${pt(u.at)}${u.moved ? ', moved this turn' : ''}` }),
    h('p.muted.small', { dataset: { reach: u.id }, text: `moves up to ${tenth(reach || 0)}″ a turn` }),
  ];
  if (c.offers(u.id).includes('move')) {
    const x = h('input#tiny-x', { type: 'number', step: 'any', value: String(u.at[0]), 'aria-label': 'x, inches' });
    const y = h('input#tiny-y', { type: 'number', step: 'any', value: String(u.at[1]), 'aria-label': 'y, inches' });
    parts.push(h('form.row', { on: { submit: (ev) => {
      ev.preventDefault();
      c.act({ move: { unit: u.id, to: [Number(x.value), Number(y.value)] } });
    } } }, x, y, h('button#tiny-move.btn.small.primary', { type: 'submit', text: 'Move' })));
  }
  return h('div', null, ...parts);
}

/** The order of battle: each side's unit. */
function oob(el, c) {
  fill(el, h('ul', null, ...c.state.units.map((u) => h('li', { text: `${c.sideName(u.side)}: ${c.name(u.id)} at ${pt(u.at)}` }))));
}

/** The order sheet: nothing to write. */
function sheet(el) {
  fill(el, h('p.muted', { text: 'A tiny game has no written orders.' }));
}

export default {
  hex: false,
  MapView,
  oob,
  sheet,
  cards: { unit: unitCard },
};
