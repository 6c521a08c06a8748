// The command panel of a staff-rating game (BP): initiative moves, a
// brigade commander's orders with the exact odds of the command roll, a
// unit's change of formation or facing and its charges, the reply to a
// charge, volleys and combats with their odds. Everything it offers comes
// from the server's board (its offers and extra); the page works out no
// rule.

import { h, fill, num, pt, tenth, deg } from '../dom.js';
import { sentence } from '../api.js';
import { BrigadeView, brigadeRole } from './common/table-units.js';
import { renderOob } from '../oob.js';
import { renderSheet } from '../sheet.js';

const FACINGS = [['N', 0], ['NE', 45], ['E', 90], ['SE', 135], ['S', 180], ['SW', 225], ['W', 270], ['NW', 315]];

/**
 * @typedef {{
 *   api: import('../api.js').Api,
 *   refresh: () => Promise<void>,
 *   banner: (msg:string) => void,
 *   name: (id:string) => string,
 *   select: (ref:{kind:string,id:string}|null) => void,
 * }} Hooks
 */

export class CommandPanel {
  /** @param {HTMLElement} el @param {Hooks} hooks */
  constructor(el, hooks) {
    this.el = el;
    this.hooks = hooks;
    this.brigade = '';
    /** @type {Set<string>} */ this.units = new Set();
    this.kind = '';
    this.modifier = 0;
    this.shooter = '';
    this.target = '';
    /** @type {Set<string>} */ this.cover = new Set();
    this.coverFor = '';
    /** @type {Map<string, any>} */ this.cache = new Map();
    /** @type {Map<string, HTMLElement>} */ this.boxes = new Map();
    /** @type {Set<string>} */ this.inflight = new Set();
    this.busy = false;
    this.result = '';
  }

  /**
   * Sends a command and shows what came of it, in the log's words.
   * @param {object} cmd @returns {Promise<boolean>}
   */
  async run(cmd) {
    try {
      const res = await this.hooks.api.command(cmd);
      this.result = (res.events || []).map((e) => e.summary).filter(Boolean).join(' ');
      await this.hooks.refresh();
      return true;
    } catch (err) {
      this.hooks.banner(sentence(err));
      return false;
    }
  }

  /**
   * Draws the panel for the board, with the selected piece.
   * @param {any} board @param {{kind:string,id:string}|null} selected
   */
  update(board, selected) {
    this.board = board;
    this.selected = selected;
    const x = board.extra || {};
    const info = board.game;
    const parts = [h('p.form-status', { text: info.over ? 'The game is over.' : `${info.phase} phase, ${info.step} step.` })];
    if (this.result) parts.push(h('p#bp-result.result', { text: this.result }));
    // A seat that does not act in this step is offered nothing: it is
    // told why (the board's why, else whose turn it is).
    const acts = (info.verbs || []).some((v) => v !== 'ready' && v !== 'end');
    if (!info.over && info.player && !acts) parts.push(h('p#bp-waiting.muted', { text: info.why || 'The other side acts now.' }));
    if (!info.over && acts) {
      switch (info.step) {
        case 'orders': parts.push(...this.orders(x)); break;
        case 'respond': parts.push(...this.respond(x)); break;
        case 'shoot': parts.push(...this.shooting(x)); break;
        case 'fight': parts.push(...this.fighting(x)); break;
      }
    }
    parts.push(this.unitPanel(x));
    fill(this.el, ...parts);
  }

  /** @param {string} id */
  offered(id) { return (this.board.offers && this.board.offers[id]) || []; }

  /** @param {string} id */
  unit(id) { return this.board.state.units.find((u) => u.id === id); }

  // ---- command phase --------------------------------------------------

  orders(x) {
    const out = [];
    const ini = Object.keys(this.board.offers || {}).filter((id) => this.offered(id).includes('initiative'));
    if (ini.length) {
      out.push(h('h3', { text: 'Initiative moves' }),
        h('p.muted.small', { text: `A unit within ${num(x.proximity)}″ of the enemy may move once on its own initiative instead of waiting for an order (BP-3). Initiative moves come before the orders.` }),
        h('div.buttons', null, ...ini.map((id) => h('button.btn.small', { type: 'button', dataset: { initiative: id }, text: `${this.hooks.name(id)}: initiative move`,
          on: { click: () => this.run({ initiative: id }) } }))));
    }
    const brigades = Object.keys(x.orders || {});
    out.push(h('h3', { text: 'Orders' }));
    if (!brigades.length) {
      out.push(h('p.muted', { text: 'No brigade commander may give an order now.' }));
      return out;
    }
    if (!brigades.includes(this.brigade)) { this.brigade = brigades[0]; this.units.clear(); }
    const per = x.orders[this.brigade] || {};
    for (const id of [...this.units]) if (!per[id]) this.units.delete(id);
    const kinds = this.kinds(per);
    if (!kinds.includes(this.kind)) this.kind = kinds[0] || '';
    const brigadeSel = h('select#bp-brigade', { on: { change: (ev) => { this.brigade = ev.target.value; this.units.clear(); this.refresh(); } } },
      ...brigades.map((b) => h('option', { value: b, text: this.hooks.name(b), selected: b === this.brigade })));
    const unitBoxes = Object.keys(per).map((id) => h('label.check', null,
      h('input', { type: 'checkbox', dataset: { unit: id }, checked: this.units.has(id), on: { change: (ev) => { if (ev.target.checked) this.units.add(id); else this.units.delete(id); this.refresh(); } } }),
      ` ${this.hooks.name(id)}`));
    const kindSel = h('select#bp-kind', { on: { change: (ev) => { this.kind = ev.target.value; this.refresh(); } } },
      ...kinds.map((k) => h('option', { value: k, text: k, selected: k === this.kind })));
    const mod = h('input#bp-modifier', { type: 'number', min: x.modifier.min, max: x.modifier.max, step: 1, value: String(this.modifier), on: { change: (ev) => { this.modifier = Number(ev.target.value) || 0; this.refresh(); } } });
    const order = this.units.size && this.kind ? { brigade: this.brigade, units: [...this.units], kind: this.kind, modifier: this.modifier } : null;
    const oddsBox = h('div#bp-odds.odds');
    const send = h('button#bp-roll.btn.primary.wide', { type: 'submit', text: 'Roll for the order', disabled: !order || this.busy });
    out.push(h('form.order-form', { on: { submit: async (ev) => {
      ev.preventDefault();
      if (!order || this.busy) return;
      this.busy = true;
      const ok = await this.run({ order });
      this.busy = false;
      if (ok) this.units.clear();
    } } },
    h('label.field', null, h('span', { text: 'Brigade' }), brigadeSel),
    h('fieldset.for', null, h('legend', { text: 'Units' }), h('div.for-list', null, ...unitBoxes)),
    h('label.field', null, h('span', { text: 'Order' }), kindSel),
    h('label.field', null, h('span', { text: 'Modifier' }), mod),
    oddsBox, send));
    if (order) this.showOdds(oddsBox, { order });
    return out;
  }

  /** The kinds of order every chosen unit may take. */
  kinds(per) {
    const chosen = [...this.units];
    if (!chosen.length) return [...new Set(Object.values(per).flat())];
    return per[chosen[0]].filter((k) => chosen.every((id) => (per[id] || []).includes(k)));
  }

  respond(x) {
    const tr = x.traverse;
    if (tr) {
      const firers = tr.firers.filter((id) => this.offered(id).includes('traverse'));
      return [h('h3', { text: 'Traversing fire' }),
        h('p', { text: `${this.hooks.name(tr.unit)} moves across the front of ${tr.firers.map((id) => this.hooks.name(id)).join(', ')} within ${num(x.proximity)}″; each may fire at it once this turn (BP-5).` }),
        firers.length
          ? h('div.buttons', null,
            ...firers.map((id) => h('button.btn', { type: 'button', dataset: { traverse: id }, text: `${this.hooks.name(id)} fires`, on: { click: () => this.run({ traverse: id }) } })),
            h('button.btn', { type: 'button', dataset: { traverse: 'pass' }, text: 'Hold fire', on: { click: () => this.run({ traverse: 'pass' }) } }))
          : h('p.muted', { text: 'The other side replies.' })];
    }
    const ch = x.charge;
    if (!ch) return [h('p.muted', { text: 'No charge waits for a reply.' })];
    const replies = x.replies || [];
    return [h('h3', { text: 'Reply to a charge' }),
      h('p', { text: `${this.hooks.name(ch.unit)} charges ${this.hooks.name(ch.target)}.` }),
      replies.length && this.offered(ch.target).includes('respond')
        ? h('div.buttons', null, ...replies.map((r) => h('button.btn', { type: 'button', dataset: { reply: r }, text: r.replace(/-/g, ' '),
          on: { click: () => this.run({ respond: r }) } })))
        : h('p.muted', { text: 'The other side replies.' })];
  }

  // ---- shooting and combat ------------------------------------------------

  shooting(x) {
    const shooters = Object.keys(this.board.offers || {}).filter((id) => this.offered(id).includes('shoot'));
    const out = [h('h3', { text: 'Shooting' })];
    if (!shooters.length) { out.push(h('p.muted', { text: 'No unit of yours has a target.' })); return out; }
    if (this.selected && this.selected.kind === 'unit' && shooters.includes(this.selected.id)) this.shooter = this.selected.id;
    if (!shooters.includes(this.shooter)) this.shooter = shooters[0];
    if (!this.selected) {
      // With nothing selected, the shooter is, so that the map marks its
      // arcs and targets; a player may select any other unit to read it.
      const id = this.shooter;
      setTimeout(() => this.hooks.select({ kind: 'unit', id }), 0);
    }
    const box = (x.units || {})[this.shooter] || {};
    // Units the player declares not clear (in cover, partly hidden): the
    // server then allows a target beyond them, or refuses the volley.
    if (this.coverFor !== this.shooter) { this.cover = new Set(); this.coverFor = this.shooter; }
    const candidates = box.candidates || [];
    for (const id of [...this.cover]) if (!candidates.includes(id)) this.cover.delete(id);
    const targets = this.cover.size ? candidates.filter((id) => !this.cover.has(id)) : (box.targets || []);
    if (!targets.includes(this.target)) this.target = targets[0] || '';
    const cover = [...this.cover];
    const shot = { unit: this.shooter, target: this.target };
    if (cover.length) shot.cover = cover;
    const oddsBox = h('div#bp-odds.odds');
    out.push(
      h('label.field', null, h('span', { text: 'Unit' }), h('select#bp-shooter', { on: { change: (ev) => { this.shooter = ev.target.value; this.hooks.select({ kind: 'unit', id: this.shooter }); } } },
        ...shooters.map((id) => h('option', { value: id, text: this.hooks.name(id), selected: id === this.shooter })))),
      h('p.muted.small', { text: 'It shoots at the closest enemy in its front arc and range; it may pass over one that is not clear (skirmishers, deployed guns, half or more out of its arc, or one you declare in cover or partly hidden). Its targets are marked on the map.' }),
      h('div.buttons', null, ...targets.map((t) => h(`button.btn.small${t === this.target ? '.primary' : ''}`, { type: 'button', dataset: { target: t }, text: this.hooks.name(t),
        on: { click: () => { this.target = t; this.refresh(); } } }))),
      candidates.length > 1 ? h('fieldset.for', null, h('legend', { text: 'Not clear (cover, partly hidden)' }),
        h('div.for-list', null, ...candidates.map((id) => h('label.check', null,
          h('input', { type: 'checkbox', dataset: { cover: id }, checked: this.cover.has(id), on: { change: (ev) => { if (ev.target.checked) this.cover.add(id); else this.cover.delete(id); this.refresh(); } } }),
          ` ${this.hooks.name(id)}`)))) : null,
      oddsBox,
      h('button#bp-fire.btn.primary.wide', { type: 'button', text: `Fire at ${this.target ? this.hooks.name(this.target) : '…'}`, disabled: !this.target,
        on: { click: () => this.run({ shoot: shot }) } }));
    if (this.target) this.showOdds(oddsBox, { shoot: shot });
    return out;
  }

  fighting() {
    const engaged = Object.keys(this.board.offers || {}).filter((id) => this.offered(id).includes('fight'));
    const out = [h('h3', { text: 'Combat' })];
    if (!engaged.length) { out.push(h('p.muted', { text: 'No combat to fight. Combats not picked are fought when the step ends.' })); return out; }
    for (const id of engaged) {
      const oddsBox = h('div.odds');
      out.push(h('div.combat', { dataset: { fight: id } },
        h('p', { text: `${this.hooks.name(id)} in combat` }), oddsBox,
        h('button.btn.primary', { type: 'button', text: 'Fight', on: { click: () => this.run({ fight: id }) } })));
      this.showOdds(oddsBox, { fight: id });
    }
    return out;
  }

  // ---- the selected unit --------------------------------------------------

  unitPanel(x) {
    const sel = this.selected;
    if (!sel || sel.kind !== 'unit') return h('p.muted.small', { text: (this.board.game.verbs || []).includes('move') ? 'Tap a unit for its state; drag one with moves left to move it.' : 'Tap a unit for its state.' });
    const u = this.unit(sel.id);
    if (!u) return h('span');
    const box = (x.units || {})[u.id] || {};
    const marks = [];
    if (u.disordered) marks.push('disordered');
    if (u.shaken) marks.push('shaken');
    if ((u.engaged || []).length) marks.push(`in combat with ${u.engaged.map((e) => this.hooks.name(e)).join(', ')}`);
    if (box.near) marks.push(`within ${num(x.proximity)}″ of the enemy: forward in its front arc or back in its rear arc only`);
    const rows = [
      h('h3', { text: this.hooks.name(u.id) }),
      h('p', { text: `${u.type}, ${u.formation}, facing ${deg(u.facing)}` }),
      h('p', { dataset: { casualties: u.id }, text: `casualties ${u.casualties || 0} of stamina ${u.stamina}; shooting ${u.shooting}, combat ${u.combat}, save ${u.morale}+, range ${num(u.range)}″, move ${num(u.move)}″` }),
    ];
    if (marks.length) rows.push(h('p.marks', { text: marks.join('; ') }));
    const acts = this.offered(u.id);
    if (acts.includes('move')) {
      rows.push(h('p', { dataset: { left: u.id }, text: `${tenth(box.left || 0)}″ of moves left (${u.order}); a change of formation or facing uses one move.` }));
      const shapes = (this.board.shapes || {})[u.type] || [];
      const shapeSel = h('select#bp-formation', null, ...shapes.map((f) => h('option', { value: f, text: f, selected: f === u.formation })));
      // The unit's own facing first if it is none of the eight, so that
      // changing the formation alone leaves the facing as it is.
      const facing = u.facing || 0;
      const facings = FACINGS.some(([, d]) => d === facing) ? FACINGS : [[`as now`, facing], ...FACINGS];
      const faceSel = h('select#bp-facing', null, ...facings.map(([n, d]) => h('option', { value: String(d), text: `${n} (${num(d)}°)`, selected: d === facing })));
      rows.push(h('div.row', null, shapeSel, faceSel, h('button.btn.small', { type: 'button', text: 'Change', on: { click: () => {
        const mv = { unit: u.id };
        if (shapeSel.value !== u.formation) mv.formation = shapeSel.value;
        if (Number(faceSel.value) !== facing) mv.facing = Number(faceSel.value);
        this.run({ move: mv });
      } } })));
    }
    if (acts.includes('charge')) {
      rows.push(h('div.buttons', null, ...(box.charges || []).map((t) => h('button.btn.small.danger', { type: 'button', dataset: { charge: t }, text: `Charge ${this.hooks.name(t)}`,
        on: { click: () => this.run({ charge: { unit: u.id, target: t } }) } }))));
    }
    return h('div.unit-card', { dataset: { bpUnit: u.id } }, ...rows);
  }

  // ---- odds ------------------------------------------------------------------

  /**
   * Shows the odds of cmd in box: fetched once per command and state of
   * the game, and shown in the latest box drawn for it.
   */
  async showOdds(box, cmd) {
    const key = `${this.board.game.version} ${JSON.stringify(cmd)}`;
    this.boxes.set(key, box);
    if (this.cache.has(key)) { fill(box, ...this.oddsView(this.cache.get(key))); return; }
    box.classList.add('loading');
    if (this.inflight.has(key)) return;
    this.inflight.add(key);
    try {
      const res = await this.hooks.api.post(this.hooks.api.path('/odds'), cmd);
      if (this.cache.size > 50) this.cache.clear();
      this.cache.set(key, res);
      const b = this.boxes.get(key);
      if (b) { b.classList.remove('loading'); fill(b, ...this.oddsView(res)); }
    } catch (err) {
      const b = this.boxes.get(key);
      if (b) { b.classList.remove('loading'); fill(b, h('p.error', { text: sentence(err) })); }
    } finally {
      this.inflight.delete(key);
    }
  }

  oddsView(res) {
    return (res.forecast || []).map((f) => h('div.forecast', null,
      h('p.small', { text: `${this.hooks.name(f.formation)}: ${f.table}${f.odds && f.odds.target !== undefined ? `, ${f.odds.dice} against ${f.odds.target}` : f.odds ? `, ${f.odds.dice}` : ''}` }),
      f.odds ? h('table.odds-table', null, ...f.odds.outcomes.map((o) => h('tr', null,
        h('td', { text: o.result }), h('td.num', { text: `${(o.probability * 100).toFixed(1)}%` }), h('td.muted', { text: o.exact })))) : null,
      f.note ? h('p.muted.small', { text: f.note }) : null));
  }

  refresh() { this.update(this.board, this.selected); }
}

/**
 * BP's table map: units on their footprints (BrigadeView), each marked
 * with its casualties against its stamina.
 */
class BpMapView extends BrigadeView {
  footprintText(u) { return `${u.casualties || 0}/${u.stamina}`; }

  casualtyNote(u) { return ` of stamina ${u.stamina}`; }
}

/** A unit's card: its marks and casualties; its commands are in the Command tab. */
function unitCard(u, c) {
  const marks = [u.disordered ? 'disordered' : '', u.shaken ? 'shaken' : '', (u.engaged || []).length ? 'in combat' : ''].filter(Boolean);
  return h('div', null,
    h(`h4.c-${c.colour(u.side)}`, null, h('span.swatch'), c.name(u.id)),
    h('p', { text: `${u.type} · ${u.formation}${marks.length ? ` · ${marks.join(', ')}` : ''}` }),
    h('p.muted.small', { text: `casualties ${u.casualties || 0} of stamina ${u.stamina} · ${c.name(u.brigade)} · at ${pt(u.at)}, facing ${deg(u.facing)}` }));
}

function generalCard(g, c) {
  return h('div', null,
    h(`h4.c-${c.colour(g.side)}`, null, h('span.swatch'), g.name || g.id),
    h('p', { text: g.brigade ? `commands ${c.name(g.brigade)}` : 'army commander' }),
    h('p.muted.small', { text: `staff rating ${g.staff}${g.trait ? `, ${g.trait}` : ''} · at ${pt(g.at)}${g.joined ? ` · with ${c.name(g.joined)}` : ''}${g.moved ? ' · has moved' : ''}` }));
}

/** BP's page module: units on footprints, the command panel, no written orders. */
export default {
  hex: false,
  MapView: BpMapView,
  Panel: CommandPanel,
  oob: (el, c) => renderOob(el, c.oobModel()),
  sheet: (el, c) => renderSheet(el, c.sheetModel({ role: (g) => brigadeRole(g, c.name) })),
  cards: { unit: unitCard, general: generalCard },
};
