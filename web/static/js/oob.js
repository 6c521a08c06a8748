// The order of battle on a table: each army as a tree of formations with
// each formation's general, current order and the orders on their way to
// it; the rule set's module adds its chips and buttons.

import { h, fill } from './dom.js';

/**
 * @typedef {{orders:Object<string,string>, acting:Object<string,string>, then:Object<string,string>}} OrderText
 *   the orders in words, as the server words them (the board's order-text)
 * @typedef {{
 *   state:any, seat:{role:string, side?:string, formation?:string}, info:any, words:OrderText,
 *   name:(id:string)=>string, colour:(side:string)=>string, etaOf:(messengerId:string)=>number|undefined,
 *   onSelectGeneral:(generalId:string)=>void,
 *   chips?:(f:any)=>HTMLElement[], actions?:(f:any)=>HTMLElement[],
 *   generalChips?:(g:any, f:any)=>HTMLElement[], orderNotes?:(f:any)=>HTMLElement[],
 *   generalWords?:(g:any)=>string, unitWords?:(u:any)=>string, unitStatus?:(u:any)=>string, unitNote?:(u:any)=>string
 * }} OobModel
 *   chips and actions are what the rule set's module adds to a formation's
 *   line: marks of its state, and the buttons of the commands it offers.
 *   generalChips marks the formation's general (by default, that he is off
 *   the table); orderNotes adds lines under its order. generalWords follows
 *   a general's name (his rating, say; none by default). In a division's
 *   list of units, unitWords names a unit's arm (its type by default),
 *   unitStatus words its state in its tooltip and class, and unitNote what
 *   its line shows of it (none by default).
 */

/**
 * Draws the order of battle into el.
 * @param {HTMLElement} el
 * @param {OobModel} m
 */
export function renderOob(el, m) {
  const st = m.state;
  const kids = new Map();
  for (const f of st.formations) {
    const p = f.parent || '';
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p).push(f);
  }
  const mine = (side) => m.seat.role === 'umpire' || side === m.seat.side;
  const roots = st.formations.filter((f) => !f.parent && mine(f.side));
  const gens = new Map(st.generals.map((g) => [g.id, g]));
  const open = openOrders(st);
  const armies = roots.map((root) => {
    const side = (m.info.sides || []).find((sd) => sd.id === root.side);
    return h(`section.army.c-${m.colour(root.side)}`, { dataset: { side: root.side } },
      h('h3.army-name', null, h('span.swatch'), side ? side.name : root.side, side ? h('span.muted.small', { text: ` ${side.nation}, ${side.edge} edge` }) : null),
      h('ul.tree', null, node(root, null)));
  });
  if (!armies.length) armies.push(h('p.muted', { text: 'No formations to show.' }));
  fill(el, ...armies);

  /**
   * @param {any} f a formation
   * @param {any} parent its parent formation, or null
   * @returns {HTMLElement}
   */
  function node(f, parent) {
    const g = gens.get(f.general);
    const children = (kids.get(f.id) || []);
    const name = m.name(f.id);
    const chips = [h('span.chip.kind', { text: f.kind })];
    if (m.chips) chips.push(...m.chips(f));
    const actions = m.actions ? m.actions(f) : [];
    const follows = parent && parent.order && f.order && parent.order.id === f.order.id;
    let orderLine;
    if (!f.order) orderLine = h('div.fm-order.muted', { text: f.kind === 'army' ? '' : 'no order' });
    else if (follows) orderLine = h('div.fm-order.muted', { text: `follows ${f.order.id}` });
    else orderLine = h('div.fm-order', null, h(`span.order-text.kind-${f.order.kind}`, { text: m.words.acting[f.id] || f.order.kind }), h('span.muted', { text: ` · ${f.order.id}` }));
    const notes = m.orderNotes ? m.orderNotes(f) : [];
    if (notes.length) orderLine = h('div', null, orderLine, ...notes);
    const pend = (open.get(f.id) || []).map((o) => pendingLine(o, gens, m));
    const units = f.kind === 'division' ? unitList(st, f, m) : null;
    return h(`li.fm.k-${f.kind}`, { dataset: { formation: f.id } },
      h('div.fm-head', null,
        h('button.fm-name', { type: 'button', title: 'Show the general on the map', on: { click: () => g && m.onSelectGeneral(g.id) } },
          name !== f.id ? name : f.id, name !== f.id ? h('span.fm-id', { text: f.id }) : null),
        ...chips,
        actions.length ? h('span.fm-actions', null, ...actions) : null),
      g ? h('div.fm-gen', null, generalLine(g, f, m)) : h('div.fm-gen.muted', { text: 'no general' }),
      orderLine,
      pend.length ? h('ul.pending', null, ...pend) : null,
      units,
      children.length ? h('ul.tree', null, ...children.map((c) => node(c, f))) : null,
    );
  }
}

/** The orders still on their way, by the formations they are for. */
function openOrders(st) {
  const out = new Map();
  for (const o of st.orders || []) {
    const partial = o.status === 'active' && (o.readers || []).some((r) => !r.active);
    if (!['carried', 'delivered', 'read'].includes(o.status) && !partial) continue;
    for (const id of o.for || []) {
      if (!out.has(id)) out.set(id, []);
      out.get(id).push(o);
    }
  }
  return out;
}

/** A formation's general: his name, the module's words for him (generalWords) and its chips (generalChips). */
function generalLine(g, f, m) {
  const words = m.generalWords ? m.generalWords(g) : '';
  const parts = [g.name || g.id, words ? h('span.muted', { text: ` · ${words}` }) : null];
  parts.push(...(m.generalChips ? m.generalChips(g, f) : offTable(g)));
  return parts;
}

/**
 * The chip of a general who is not on the table, or none.
 * @param {any} g
 * @returns {HTMLElement[]}
 */
export function offTable(g) {
  return g['on-table'] ? [] : [h('span.chip', { text: 'off the table' })];
}

/** A line for an order on its way: status, messenger, readers, acting turns. */
function pendingLine(o, gens, m) {
  const gname = (id) => { const g = gens.get(id); return g ? g.name || g.id : m.name(id); };
  let status;
  if (o.status === 'carried') {
    const ms = (m.state.messengers || []).find((x) => x.order === o.id);
    const eta = ms ? m.etaOf(ms.id) : undefined;
    status = `carried${ms ? ` by ${ms.id}` : ''}${o.via ? ` to ${gname(o.via)}` : ''}${eta ? `, arrives about turn ${eta}` : ''}`;
  } else if (o.status === 'delivered') {
    status = `delivered turn ${o.delivered}${o.via ? ` to ${gname(o.via)}` : ''}; read in the next communications step`;
  } else {
    status = o.status;
  }
  const readers = (o.readers || []).filter((r) => r.read || r.active).map((r) =>
    h('span.reader', { text: `${r.formation}: ${r.active ? 'acting' : `acts turn ${r.acts}`}${r.general ? ` (${gname(r.general)})` : ''}` }));
  return h(`li.status-${o.status}`, { dataset: { order: o.id } },
    h('span.order-id', { text: o.id }), ' ',
    h(`span.order-text.kind-${o.kind}`, { text: m.words.orders[o.id] || o.kind }),
    h('div.muted.small', null, `written turn ${o.written} · ${status}`),
    readers.length ? h('div.readers', null, ...readers) : null);
}

/** A division's units, each with its arm and formation, and what the module notes of its state. */
function unitList(st, f, m) {
  const us = st.units.filter((u) => u.division === f.id);
  if (!us.length) return null;
  const arm = m.unitWords || ((u) => u.type);
  return h('ul.units', null, ...us.map((u) => {
    const status = m.unitStatus ? m.unitStatus(u) : '';
    const note = m.unitNote ? m.unitNote(u) : '';
    return h(`li.unit-chip${status ? `.st-${status}` : ''}`, { dataset: { unit: u.id }, title: `${u.id}: ${u.type}, ${u.formation}${status ? `, ${status}` : ''}${u['on-table'] ? '' : ', off the table'}` },
      h('b', { text: u.id.startsWith(f.id + '-') ? u.id.slice(f.id.length + 1) : u.id }), ` ${arm(u)} · ${u.formation}`,
      note ? h('span.st', { text: ` · ${note}` }) : null,
      !u['on-table'] ? h('span.muted', { text: ' · off table' }) : null);
  }));
}
