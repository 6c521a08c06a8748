// The printable order sheet: the side's orders (the umpire: every side's)
// as a plain table, for the paper copy at the table.

import { h, fill, pt } from './dom.js';

/**
 * @param {HTMLElement} el the sheet's body
 * @param {{info:any, state:any, name:(id:string)=>string, nameGeneral:(id:string)=>string, sideName:(id:string)=>string}} m
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
    h('td.mono', { text: o.objective ? pt(o.objective) : '—' }),
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
    h('p.sheet-foot', { text: 'Objective in inches from the north-west corner (x east, y south). Turn "before" = an initial order (NB-1).' }));
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
 * The order sheet of a rule set whose board words its orders (LOB, NES):
 * one row per order, in the server's words.
 * @param {HTMLElement} el the sheet's body
 * @param {{info:any, rows:{id:string, words:string, live:boolean}[]}} m
 */
export function renderWordsSheet(el, m) {
  const { info, rows } = m;
  const who = info.seat.role === 'umpire' ? 'all sides (umpire)' : info.seat.label;
  fill(el,
    sheetHead(info, who),
    rows.length
      ? h('table.sheet-table', null,
        h('thead', null, h('tr', null, h('th', { text: 'Order' }), h('th', { text: 'As it stands' }))),
        h('tbody', null, ...rows.map((r) => h(`tr${r.live ? '' : '.status-done'}`, { dataset: { order: r.id } },
          h('td.mono', { text: r.id }), h('td', { text: r.words })))))
      : h('p', { text: 'No orders yet.' }));
}

/** The sheet's heading: whose orders, the game and where it stands. */
function sheetHead(info, who) {
  return h('header.sheet-head', null,
    h('h1', { text: `Orders — ${who}` }),
    h('p', { text: `${info.title} · game ${info.id} · turn ${info.turn} of ${info.turns}, ${info.phase} phase, ${info.step} step` }));
}
