// The printable order sheet: the side's orders (the umpire: every side's)
// as a plain table, for the paper copy at the table, with where the
// commanders stand: the grid square on a table (as reserves enter by, "H2"), the printed hex label on a hex map ("0412"), so that the paper
// reads without the screen.

import { h, fill, pt, squareOf } from './dom.js';

/**
 * A place where a commander stands, for the sheet.
 * @typedef {{who:string, side:string, role:string, at:string, square?:string}} Where
 */

/**
 * @param {HTMLElement} el the sheet's body
 * @param {{info:any, state:any, field?:any, where?:Where[], name:(id:string)=>string, nameGeneral:(id:string)=>string, sideName:(id:string)=>string, note?:string}} m
 *   note is the rule set's word on the sheet's columns, at its foot
 */
export function renderSheet(el, m) {
  const { info, state } = m;
  const umpire = info.seat.role === 'umpire';
  const orders = [...(state.orders || [])].sort((a, b) => (a.side < b.side ? -1 : a.side > b.side ? 1 : 0) || idNum(a.id) - idNum(b.id));
  const who = umpire ? 'all sides (umpire)' : info.seat.label;
  const rows = orders.map((o) => h(`tr.status-${o.status}`, { dataset: { order: o.id } },
    umpire ? h('td', { text: m.sideName(o.side) }) : null,
    h('td.mono', { text: o.id }),
    h('td', { text: (o.for || []).map((id) => `${m.name(id)}${m.name(id) !== id ? ` (${id})` : ''}`).join(', ') }),
    h('td', { text: o.kind }),
    h('td.mono', { text: o.objective ? `${pt(o.objective)}${m.field && squareOf(m.field, o.objective) ? ` · ${squareOf(m.field, o.objective)}` : ''}` : '—' }),
    h('td', { text: o.note || '' }),
    h('td.num', { text: o.written ? String(o.written) : 'before' }),
    h('td', { text: statusText(o, m) }),
    h('td', { text: acting(o, m) })));
  fill(el,
    sheetHead(info, who),
    orders.length
      ? h('table.sheet-table', null,
        h('thead', null, h('tr', null, umpire ? h('th', { text: 'Side' }) : null, ...['Order', 'For', 'Kind', 'Objective', 'Note', 'Written', 'Status', 'Acts'].map((t) => h('th', { text: t })))),
        h('tbody', null, ...rows))
      : h('p', { text: 'No orders yet.' }),
    whereTable(m.where || [], umpire, m.sideName, true),
    h('p.sheet-foot', { text: `Positions in inches from the north-west corner (x east, y south)${m.field && m.field.columns ? `; squares of the entry grid, A1 at the north-west (columns A–${String.fromCharCode(64 + m.field.columns)} west to east, rows 1–${m.field.rows} north to south)` : ''}.${m.note ? ` ${m.note}` : ''}` }));
}

/**
 * Where the commanders stand, as the board has them.
 * @param {Where[]} where @param {boolean} umpire @param {(id:string)=>string} sideName @param {boolean} table
 */
function whereTable(where, umpire, sideName, table) {
  if (!where.length) return null;
  return h('section.sheet-where', null,
    h('h2', { text: 'Where the commanders stand' }),
    h('table.sheet-table.where', null,
      h('thead', null, h('tr', null, umpire ? h('th', { text: 'Side' }) : null, h('th', { text: 'Commander' }), h('th', { text: 'Commands' }),
        h('th', { text: table ? 'Position' : 'Hex' }), table ? h('th', { text: 'Square' }) : null)),
      h('tbody', null, ...where.map((w) => h('tr', { dataset: { where: w.who } },
        umpire ? h('td', { text: sideName(w.side) }) : null, h('td', { text: w.who }), h('td', { text: w.role }),
        h('td.mono', { text: w.at }), table ? h('td.mono', { text: w.square || '—' }) : null)))));
}

function idNum(id) {
  const n = parseInt(String(id).replace(/^.*-/, ''), 10);
  return Number.isFinite(n) ? n : 0;
}

function statusText(o, m) {
  switch (o.status) {
    case 'carried': return `carried${o.via ? ` to ${m.nameGeneral(o.via)}` : ''}`;
    case 'delivered': return `delivered turn ${o.delivered}${o.via ? ` to ${m.nameGeneral(o.via)}` : ''}`;
    case 'read': return 'read';
    default: return o.status;
  }
}

function acting(o, m) {
  if (o.direct && !o.written) return 'from the start';
  const rs = (o.readers || []).filter((r) => r.read || r.active || r.acts);
  if (!rs.length) return '—';
  return rs.map((r) => `${r.formation}: ${r.acts ? `turn ${r.acts}` : 'acting'}${r.active ? ' ✓' : ''}`).join('; ');
}

/**
 * The order sheet of a rule set whose board words its orders (hex games):
 * one row per order, in the server's words (objectives by hex label), and
 * the hex each leader stands in.
 * @param {HTMLElement} el the sheet's body
 * @param {{info:any, rows:{id:string, words:string, live:boolean}[], where?:Where[], sideName?:(id:string)=>string}} m
 */
export function renderWordsSheet(el, m) {
  const { info, rows } = m;
  const umpire = info.seat.role === 'umpire';
  const who = umpire ? 'all sides (umpire)' : info.seat.label;
  fill(el,
    sheetHead(info, who),
    rows.length
      ? h('table.sheet-table', null,
        h('thead', null, h('tr', null, h('th', { text: 'Order' }), h('th', { text: 'As it stands' }))),
        h('tbody', null, ...rows.map((r) => h(`tr${r.live ? '' : '.status-done'}`, { dataset: { order: r.id } },
          h('td.mono', { text: r.id }), h('td', { text: r.words })))))
      : h('p', { text: 'No orders yet.' }),
    whereTable(m.where || [], umpire, m.sideName || ((id) => id), false),
    h('p.sheet-foot', { text: 'Hexes by their printed label: column then row (0412 is column 4, row 12).' }));
}

/** The sheet's heading: whose orders, the game and where it stands. */
function sheetHead(info, who) {
  return h('header.sheet-head', null,
    h('h1', { text: `Orders — ${who}` }),
    h('p', { text: `${info.title} · game ${info.id} · turn ${info.turn} of ${info.turns}, ${info.phase} phase, ${info.step} step` }));
}
