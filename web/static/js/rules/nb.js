// NB's page module: orders written in the Orders tab and carried by
// messengers, the order of battle with reserves and engagement, and the
// cards of a selected unit, general or messenger with the commands the
// server offers for it (attach, detach and redirect with the targets the
// board lists, NB-11, NB-13), and the umpire's removal and replacement of
// a general (nb/umpire.js, NB-15).

import { h, num, pt, tenth } from '../dom.js';
import { renderOob, offTable } from '../oob.js';
import { renderSheet } from '../sheet.js';
import { NbMapView } from './nb/map.js';
import { OrderForm } from './nb/orders.js';
import { umpireCard } from './nb/umpire.js';
import { armWord } from './common/arms.js';

const FACINGS = [['N', 0], ['NE', 45], ['E', 90], ['SE', 135], ['S', 180], ['SW', 225], ['W', 270], ['NW', 315]];

/** How many of the nearest pieces a general may attach to the card lists. */
const ATTACH_CHOICES = 10;

/**
 * Formations an order may be written for now (the server offers write for
 * them), in tree order with their depth under the army.
 * @param {any} c the page's context
 */
function writable(c) {
  const st = c.state;
  const out = [];
  const walk = (parent, depth) => {
    for (const f of st.formations) {
      if ((f.parent || '') !== parent) continue;
      if (c.offers(f.id).includes('write')) out.push({ ...f, depth });
      walk(f.id, (f.parent || '') === '' ? depth : depth + 1);
    }
  };
  walk('', 0);
  return out;
}

/** The chips of a formation in the order of battle: its reserve, its engagement. */
function chips(f) {
  const out = [];
  if (f.reserve === 'on-board') out.push(h('span.chip.reserve', { text: 'reserve', title: 'on-board reserve (NB-9)' }));
  if (f.reserve === 'off-board') {
    let t = `off-board reserve, ${f.square || '?'}`;
    if (f.arrival) t += `, enters turn ${f.arrival}`;
    else if (f.entry) t += `, from turn ${f.entry}`;
    out.push(h('span.chip.reserve', { text: t, title: 'off-board reserve (NB-10)' }));
  }
  if (f.entered) out.push(h('span.chip', { text: `entered turn ${f.entered}` }));
  if (f.engaged) out.push(h('span.chip.engaged', { text: 'engaged', title: `engaged with ${(f.with || []).join(', ')} (NB-6)` }));
  return out;
}

/**
 * The chips of a formation's general: attached (NB-13), fallen (NB-15),
 * off the table unless his formation is an off-board reserve (NB-10).
 */
function generalChips(g, f) {
  const out = [];
  if (g.attached) out.push(h('span.chip', { text: `attached to ${g.attached}` }));
  if (g.fate) out.push(h('span.chip.fallen', { text: g.fate }));
  if (f.reserve !== 'off-board') out.push(...offTable(g));
  return out;
}

/** A general's quality and command range, after his name in the order of battle. */
function generalWords(g) { return `${g.quality}, ${num(g.range)}″`; }

/** A unit's state in a division's list when it is not formed: disordered or routed (NB-6, NB-12). */
function unitNote(u) { return u.status !== 'formed' ? u.status : ''; }

/**
 * The order an off-board reserve will act on when it enters (NB-10).
 * @param {any} f @param {import('../oob.js').OrderText} words
 */
function orderNotes(f, words) {
  if (!f.then || f.reserve !== 'off-board') return [];
  return [h('div.fm-order.muted', { text: `on entry: ${words.then[f.id] || f.then.kind} (${f.then.id})` })];
}

/** The buttons of a formation in the order of battle: an order for it, completing its attack. */
function actions(f, c) {
  const out = [];
  const write = c.can('write') && (!c.isUmpire() || !!c.board.acting) && writable(c).some((w) => w.id === f.id);
  if (write) out.push(h('button.btn.small', { type: 'button', dataset: { orderFor: f.id }, text: 'Order…', on: { click: () => c.writeOrder(f.id) } }));
  if (c.offers(f.id).includes('complete')) {
    out.push(h('button.btn.small', { type: 'button', text: 'Complete', title: 'The attack order is done: the formation now defends (NB-8)',
      on: { click: () => c.act({ complete: f.id }, `${c.name(f.id)} completed its attack order.`) } }));
  }
  return out;
}

function unitCard(u, c) {
  const acts = [];
  // The server offers move for the units the seat may move; the umpire
  // moves them only past their speed, by dragging them, so his card offers
  // no change of formation unless he acts for a side.
  if (c.offers(u.id).includes('move') && (!c.isUmpire() || !!c.board.acting)) {
    // The formations the board allows it now (an attack order keeps it to
    // column until engaged, NB-7), and the one it stands in.
    const given = (((c.board.extra || {}).formations) || {})[u.id] || [];
    const shapes = given.includes(u.formation) ? given : [u.formation, ...given];
    const shape = h('select', { 'aria-label': 'Formation' }, ...shapes.map((sh) => h('option', { value: sh, text: sh, selected: sh === u.formation })));
    const face = h('select', { 'aria-label': 'Facing' }, ...FACINGS.map(([n, d]) => h('option', { value: d, text: `face ${n}`, selected: Math.round((u.facing || 0) / 45) * 45 % 360 === d })));
    acts.push(h('div.row', null, shape, face, h('button.btn.small', { type: 'button', text: 'Apply', on: { click: () => {
      /** @type {any} */
      const mv = { unit: u.id, to: u.at };
      if (shape.value !== u.formation) mv.formation = shape.value;
      if (Number(face.value) !== (u.facing || 0)) mv.facing = Number(face.value);
      c.act({ move: mv }, `${u.id} now in ${shape.value}.`);
    } } })));
  }
  const buttons = [];
  // The server says which commands this seat may give for the unit now;
  // combat names one of the divisions the unit's division is engaged with.
  const offered = c.offers(u.id);
  if (offered.includes('combat')) for (const w of ((c.state.formations || []).find((f) => f.id === u.division) || {}).with || []) buttons.push([`Combat with ${w}`, { combat: { units: [u.id], target: w } }, `${u.id} starts combat with ${w}.`]);
  if (offered.includes('react')) buttons.push(['React', { react: [u.id] }, `${u.id} reacts.`]);
  if (offered.includes('rout')) buttons.push(['Rout', { rout: [u.id] }, `${u.id} is routed.`]);
  if (offered.includes('rally')) buttons.push(['Rally', { rally: [u.id] }, `${u.id} rallies.`]);
  if (buttons.length) acts.push(h('div.row', null, ...buttons.map(([label, cmd, done]) => h('button.btn.small', { type: 'button', text: label, on: { click: () => c.act(cmd, done) } }))));
  return h('div', null,
    h(`h4.c-${c.colour(u.side)}`, null, h('span.swatch'), u.id),
    h('p', { text: `${u.type.replace('-', ' ')} · ${u.formation} · ${u.status}` }),
    h('p.muted.small', { text: `${c.name(u.division)} (${u.division}) · at ${pt(u.at)} · speed ${num(u.speed)}″${u.moved ? ` · moved ${tenth(u.moved)}″` : ''}` }),
    ...acts);
}

function generalCard(g, c) {
  const f = c.state.formations.find((x) => x.id === g.commands);
  const x = c.board.extra || {};
  const acts = [];
  const offered = c.offers(g.id);
  if (offered.includes('detach')) acts.push(h('button.btn.small', { type: 'button', text: `Detach from ${c.nameGeneral(g.attached)}`, on: { click: () => c.act({ detach: g.id }, `${g.name || g.id} detached.`) } }));
  if (offered.includes('attach')) {
    // What he may attach to, nearest first, as the board lists it.
    const near = (((x.generals || {})[g.id] || {}).attach || []).slice(0, ATTACH_CHOICES);
    const label = (id) => (c.state.units.some((u) => u.id === id) ? id : c.nameGeneral(id));
    const sel = h('select', { 'aria-label': 'Attach to' }, ...near.map((n) => h('option', { value: n.id, text: `${label(n.id)} (${tenth(n.distance)}″)` })));
    acts.push(h('div.row', null, sel, h('button.btn.small', { type: 'button', text: 'Attach', title: 'NB-13', on: { click: () => c.act({ attach: { general: g.id, to: sel.value } }, `${g.name || g.id} attached to ${sel.value}.`) } })));
  }
  return h('div', null,
    h(`h4.c-${c.colour(g.side)}`, null, h('span.swatch'), g.name || g.id),
    h('p', { text: f ? `${f.kind === 'army' ? 'army commander' : `commands ${c.name(f.id)} (${f.id})`}` : '' }),
    h('p.muted.small', { text: `${g.quality} · command range ${num(g.range)}″ · at ${pt(g.at)}${g.attached ? ` · attached to ${c.nameGeneral(g.attached)}` : ''}${g.fate ? ` · ${g.fate}` : ''}` }),
    ...acts);
}

function messengerCard(m, c) {
  const own = c.mine(m.side);
  const acts = [];
  const eta = c.etaOf(m.id);
  if (c.offers(m.id).includes('redirect')) {
    // The generals it may ride to instead, as the board lists them.
    const to = ((c.board.extra || {}).messengers || {})[m.id] || {};
    const sel = h('select', { 'aria-label': 'Ride to' }, ...(to.redirect || []).map((id) => h('option', { value: id, text: c.nameGeneral(id) })));
    acts.push(h('div.row', null, sel, h('button.btn.small', { type: 'button', text: 'Redirect', title: 'NB-11', on: { click: () => c.act({ redirect: { messenger: m.id, to: sel.value } }, `${m.id} redirected.`) } })));
  }
  return h('div', null,
    h(`h4.c-${c.colour(m.side)}`, null, h('span.swatch'), `Messenger ${m.id}`),
    own
      ? h('p', { text: `${m.order ? `carries ${m.order}` : 'carries an order'}${m.to ? ` to ${c.nameGeneral(m.to)}` : ''}` })
      : h('p', { text: `${c.sideName(m.side)}: what it carries, and to whom, is hidden.` }),
    h('p.muted.small', { text: `at ${pt(m.at)} · rides ${num(m.speed)}″ a turn${own && eta ? ` · arrives about turn ${eta}` : ''}` }),
    ...acts);
}

export default {
  hex: false,
  MapView: NbMapView,
  Panel: null,
  /**
   * The order form of the Orders tab; ctx() is the page's context, or
   * null before the first board.
   * @param {{api:any, ctx:()=>any, onObjective:(p:number[]|null)=>void, onSent:()=>void, banner:(msg:string)=>void}} o
   */
  orders: (o) => new OrderForm({
    api: o.api,
    model: () => {
      const c = o.ctx();
      return c && { info: c.info, state: c.state, field: c.board.field, name: c.name, nameGeneral: c.nameGeneral, writable: writable(c), acting: c.board.acting || '',
        left: ((c.board.advice || {}).left) || [] };
    },
    onObjective: o.onObjective,
    onSent: o.onSent,
    banner: o.banner,
  }),
  oob: (el, c) => {
    const m = c.oobModel();
    renderOob(el, {
      ...m, chips, actions: (f) => actions(f, c), generalChips, orderNotes: (f) => orderNotes(f, m.words),
      generalWords, unitWords: armWord, unitStatus: (u) => u.status, unitNote,
    });
  },
  // a fallen general (NB-15) is not on the sheet's list of where they stand
  sheet: (el, c) => renderSheet(el, { ...c.sheetModel({ present: (g) => !g.fate }), note: 'Turn "before" = an initial order (NB-1).' }),
  cards: { unit: unitCard, general: generalCard, messenger: messengerCard },
  umpireCard,
};
