// The command panel of a hex game (NES): orders sent down the chain of
// command with their delivery odds, command points stacked with
// commanders, the odds of the rolls the side's next command segment will
// make, moves priced by the terrain chart (the server finds the path and
// its cost), changes of formation, strength losses, extended-range fire,
// charges, and a line-of-sight tool. Everything it offers and every number
// it shows comes from the server (the board's offers and extra, and the
// odds it asks for); the page works out no rule.

import { h, fill } from '../dom.js';
import { sentence } from '../api.js';
import { HexUnitsView } from './common/hex-units.js';
import { renderWordsSheet } from '../sheet.js';

/**
 * @typedef {{
 *   api: import('../api.js').Api,
 *   refresh: () => Promise<void>,
 *   banner: (msg:string) => void,
 *   name: (id:string) => string,
 *   select: (ref:{kind:string,id:string}|null) => void,
 *   redraw: () => void,
 * }} Hooks
 */

export class NesPanel {
  /** @param {HTMLElement} el @param {Hooks} hooks */
  constructor(el, hooks) {
    this.el = el;
    this.hooks = hooks;
    this.from = '';
    this.to = '';
    this.kind = '';
    this.urgent = false;
    this.note = '';
    /** @type {number[]|null} */ this.objective = null;
    /** What a tap on the map gives: '', objective, move, bombard, charge, sight. */
    this.pick = '';
    /** @type {number[]|null} */ this.sightFrom = null;
    /** @type {{path:number[][], note?:string, ok:boolean}|null} */ this.overlay = null;
    this.pending = null; // the command the overlay previews
    this.gt = false;
    this.disorder = false;
    this.result = '';
    this.board = null;
    this.selected = null;
    /** @type {Map<string, any>} */ this.cache = new Map();
  }

  label(p) {
    const d = this.board.space.hex.digits;
    return String(p[0]).padStart(d, '0') + String(p[1]).padStart(d, '0');
  }

  offered(id) { return ((this.board && this.board.offers) || {})[id] || []; }

  leader(id) { return (this.board.state.leaders || []).find((l) => l.id === id); }

  unit(id) { return (this.board.state.units || []).find((u) => u.id === id); }

  /** Whether a tap on the map goes to the panel. */
  picking() { return this.pick !== ''; }

  async run(cmd) {
    try {
      const res = await this.hooks.api.command(cmd);
      this.hooks.banner(''); // an earlier refusal is answered
      this.result = (res.events || []).map((e) => e.summary).filter(Boolean).join(' ');
      this.overlay = null;
      this.pending = null;
      this.pick = '';
      await this.hooks.refresh();
      return true;
    } catch (err) {
      this.hooks.banner(sentence(err));
      return false;
    }
  }

  /** Asks the server what cmd would meet. */
  async ask(cmd) {
    const key = `${this.board.game.version} ${JSON.stringify(cmd)}`;
    if (this.cache.has(key)) return this.cache.get(key);
    const res = await this.hooks.api.post(this.hooks.api.path('/odds'), cmd);
    if (this.cache.size > 60) this.cache.clear();
    this.cache.set(key, res);
    return res;
  }

  /**
   * Whether the board offers the selected piece a move and lists the hex
   * labelled at among the hexes it reaches.
   * @param {{kind:string,id:string}|null} sel @param {string} at
   */
  reaches(sel, at) {
    if (!sel || sel.kind !== 'unit' || !this.offered(sel.id).includes('move')) return false;
    const box = ((this.board && this.board.extra) || {}).units || {};
    return ((box[sel.id] || {}).reach || []).some((c) => this.label(c.at) === at);
  }

  /** A tap on hex p while the panel picks. @param {number[]} p */
  async onPick(p) {
    const at = this.label(p);
    const sel = this.selected;
    // A tap on a hex the selected piece reaches (shaded from the board)
    // picks it to move to, as on LOB's map: no button first.
    if (!this.pick && this.reaches(sel, at)) this.pick = 'move';
    try {
      switch (this.pick) {
        case 'objective':
          this.objective = p;
          this.pick = '';
          break;
        case 'sight': {
          if (!this.sightFrom) { this.sightFrom = p; this.overlay = { path: [p], ok: true, note: 'tap the other end' }; break; }
          const res = await this.ask({ sight: { from: this.label(this.sightFrom), to: at } });
          const f = res.forecast[0];
          this.overlay = { path: f.path, note: f.note, ok: !/blocked/.test(f.note) };
          this.result = f.note;
          this.sightFrom = null;
          break;
        }
        case 'move': {
          const mv = sel.kind === 'unit' ? { unit: sel.id, to: at } : sel.kind === 'hq' ? { hq: true, to: at } : { general: sel.id, to: at };
          if (this.gt) mv['grand-tactical'] = true;
          if (this.disorder) mv.disorder = true;
          const res = await this.ask({ move: mv });
          const f = res.forecast[0];
          this.overlay = { path: f.path, note: f.note, ok: true };
          this.pending = { move: mv };
          break;
        }
        case 'bombard':
        case 'charge': {
          const cmd = { [this.pick]: { unit: sel.id, target: at } };
          const res = await this.ask(cmd);
          this.forecast = res.forecast;
          const f = res.forecast[0];
          this.overlay = { path: f.path || [], note: at, ok: true };
          this.pending = cmd;
          break;
        }
        default:
          this.hooks.select(null);
          return;
      }
    } catch (err) {
      this.overlay = null;
      this.pending = null;
      this.hooks.banner(sentence(err));
    }
    this.refresh();
    this.hooks.redraw();
  }

  /** Draws the panel for the board, with the selected piece. */
  update(board, selected) {
    const changed = !this.selected || !selected || this.selected.id !== selected.id;
    this.board = board;
    this.selected = selected;
    if (changed && this.pick !== 'sight' && this.pick !== 'objective') { this.pick = ''; this.overlay = null; this.pending = null; }
    const x = board.extra || {};
    const info = board.game;
    const parts = [h('p.form-status', { text: info.over ? 'The game is over.' : `${info.phase} phase, ${info.step} step.` })];
    if (this.result) parts.push(h('p#nes-result.result', { text: this.result }));
    parts.push(h('div.buttons', null, h('button.btn.small', {
      type: 'button', dataset: { tool: 'sight' }, 'aria-pressed': String(this.pick === 'sight'),
      text: this.pick === 'sight' ? 'Line of sight: tap two hexes' : 'Line of sight',
      on: { click: () => { this.pick = this.pick === 'sight' ? '' : 'sight'; this.sightFrom = null; this.overlay = null; this.refresh(); this.hooks.redraw(); } },
    })));
    // A seat that does not act in this step is offered nothing: it is
    // told why (the board's why, else whose turn it is).
    const acts = (info.verbs || []).some((v) => v !== 'ready' && v !== 'end');
    if (!info.over && info.player && !acts) parts.push(h('p#nes-waiting.muted', { text: info.why || 'The other side acts now.' }));
    if (!info.over && acts) {
      switch (info.step) {
        case 'orders': parts.push(...this.orders(x)); break;
        case 'move': parts.push(...this.moving(x)); break;
        case 'combat': parts.push(...this.combat(x)); break;
      }
    }
    parts.push(...this.coming(x));
    parts.push(this.card(x));
    fill(this.el, ...parts);
  }

  refresh() { if (this.board) this.update(this.board, this.selected); }

  // ---- orders ----------------------------------------------------------------

  orders(x) {
    const senders = Object.keys(this.board.offers || {}).filter((id) => this.offered(id).includes('send'));
    const out = [h('h3', { text: 'Orders' }), h('p#nes-points', { text: `${x.points} command points left this turn: an order costs ${x.costs.order}, urgent ${x.costs.order + x.costs.urgent}, a CP stacked with a commander ${x.costs.cp}.` })];
    if (!senders.length) { out.push(h('p.muted', { text: 'No order can be sent now.' })); return out; }
    if (this.selected && this.selected.kind === 'general' && senders.includes(this.selected.id)) this.from = this.selected.id;
    if (!senders.includes(this.from)) this.from = senders[0];
    const subs = ((x.leaders || {})[this.from] || {}).subordinates || [];
    if (!subs.includes(this.to)) this.to = subs[0] || '';
    if (!this.kind) this.kind = (x.orders || [])[0] || 'attack';
    const fromSel = h('select#nes-from', { on: { change: () => { this.from = fromSel.value; this.refresh(); } } },
      ...senders.map((id) => h('option', { value: id, text: this.hooks.name(id), selected: id === this.from })));
    const toSel = h('select#nes-to', { on: { change: () => { this.to = toSel.value; this.refresh(); } } },
      ...subs.map((id) => h('option', { value: id, text: this.hooks.name(id), selected: id === this.to })));
    const kindSel = h('select#nes-kind', { on: { change: () => { this.kind = kindSel.value; this.refresh(); } } },
      ...(x.orders || []).map((k) => h('option', { value: k, text: k, selected: k === this.kind })));
    const urgent = h('input#nes-urgent', { type: 'checkbox', checked: this.urgent, on: { change: () => { this.urgent = urgent.checked; this.refresh(); } } });
    const note = h('input#nes-note', { type: 'text', maxlength: '200', value: this.note, placeholder: 'e.g. take the ridge', on: { input: () => { this.note = note.value; } } });
    const send = { from: this.from, to: this.to, order: this.kind };
    if (this.urgent) send.urgent = true;
    if (this.objective) send.objective = this.label(this.objective);
    const oddsBox = h('div#nes-odds.odds');
    out.push(h('label.field', null, h('span', { text: 'From' }), fromSel),
      h('label.field', null, h('span', { text: 'To' }), toSel),
      h('label.field', null, h('span', { text: 'Order' }), kindSel),
      h('div.row', null,
        h('button.btn.small', { type: 'button', dataset: { pick: 'objective' }, text: this.pick === 'objective' ? 'Tap the objective…' : 'Objective on the map', on: { click: () => { this.pick = 'objective'; this.refresh(); } } }),
        h('span#nes-objective', { text: this.objective ? this.label(this.objective) : 'none' }),
        this.objective ? h('button.btn.small', { type: 'button', text: 'Clear', on: { click: () => { this.objective = null; this.refresh(); } } }) : null),
      h('label.check', null, urgent, ' urgent (one more command point, -2 to the delivery roll)'),
      h('label.field', null, h('span', { text: 'Note' }), note),
      oddsBox,
      h('button#nes-send.btn.primary.wide', { type: 'button', text: 'Send the order', disabled: !this.to,
        on: { click: () => { const c = { ...send }; if (this.note) c.note = this.note; this.run({ send: c }); } } }));
    if (this.to) this.showOdds(oddsBox, { send });
    const sel = this.selected;
    if (sel && sel.kind === 'general' && this.offered(sel.id).includes('cp')) {
      out.push(h('button#nes-cp.btn', { type: 'button', text: `Stack a command point with ${this.hooks.name(sel.id)}`, on: { click: () => this.run({ cp: sel.id }) } }));
    }
    return out;
  }

  async showOdds(box, cmd) {
    box.classList.add('loading');
    try {
      const res = await this.ask(cmd);
      box.classList.remove('loading');
      fill(box, ...this.oddsView(res));
    } catch (err) {
      box.classList.remove('loading');
      fill(box, h('p.error', { text: sentence(err) }));
    }
  }

  oddsView(res) {
    return (res.forecast || []).map((f) => h('div.forecast', null,
      h('p.small', { text: `${this.hooks.name(f.general || f.formation)}${f.table ? `: ${f.table}` : ''}` }),
      f.odds ? h('table.odds-table', null, ...f.odds.outcomes.map((o) => h('tr', { dataset: { result: o.result } },
        h('td', { text: o.result }), h('td.num', { text: `${(o.probability * 100).toFixed(1)}%` }), h('td.muted', { text: o.exact })))) : null,
      f.note ? h('p.muted.small', { text: f.note }) : null));
  }

  /** The rolls the side's next command segment will make, with odds. */
  coming(x) {
    const list = x.odds || [];
    if (!list.length) return [];
    return [h('h3', { text: 'Rolls coming in the next command segment' }),
      h('ul#nes-coming.coming', null, ...list.map((o) => h('li', { dataset: { leader: o.leader, table: o.table } },
        h('b', { text: this.hooks.name(o.leader) }), ` ${o.why}: `,
        Object.entries(o.chance).map(([k, v]) => `${k} ${v}`).join(', '))))];
  }

  // ---- movement ----------------------------------------------------------------

  moving(x) {
    const out = [h('h3', { text: 'Movement' })];
    const sel = this.selected;
    const key = sel && sel.kind === 'hq' ? `hq:${sel.id}` : sel && sel.id;
    if (!sel || !this.offered(key).includes('move')) {
      out.push(h('p.muted', { text: 'Select one of your units, commanders or your headquarters (the flag) with movement left; the hexes a unit can reach are shaded with their cost.' }));
      return out;
    }
    if (sel.kind === 'hq') {
      out.push(h('p#nes-left', { text: 'The army headquarters moves as a command unit does: 1 MP a hex.' }));
    } else {
      const left = sel.kind === 'unit' ? ((x.units || {})[sel.id] || {}).left : ((x.leaders || {})[sel.id] || {}).left;
      out.push(h('p#nes-left', { text: `${this.hooks.name(sel.id)}: ${left} MP left this turn.` }));
    }
    const gt = h('input#nes-gt', { type: 'checkbox', checked: this.gt, on: { change: () => { this.gt = gt.checked; this.overlay = null; this.pending = null; this.refresh(); this.hooks.redraw(); } } });
    const dis = h('input#nes-disorder', { type: 'checkbox', checked: this.disorder, on: { change: () => { this.disorder = dis.checked; this.overlay = null; this.pending = null; this.refresh(); this.hooks.redraw(); } } });
    out.push(h('label.check', null, gt, ' grand tactical movement (+2 MP)'));
    if (sel.kind === 'unit') out.push(h('label.check', null, dis, ' cross streams at +1 and disorder'));
    if (sel.kind === 'hq') gt.disabled = true;
    out.push(h('button#nes-pick-move.btn', { type: 'button', text: this.pick === 'move' ? 'Tap the hex to move to…' : 'Choose a hex to move to', on: { click: () => { this.pick = 'move'; this.refresh(); } } }));
    if (this.pending && this.pending.move && this.overlay) {
      out.push(h('p#nes-path.small', { text: this.overlay.note || '' }),
        h('button#nes-move.btn.primary', { type: 'button', text: `Move to ${this.pending.move.to}`, on: { click: () => this.run(this.pending) } }));
    }
    if (sel.kind === 'unit' && this.offered(sel.id).includes('form')) {
      const u = this.unit(sel.id);
      const shapes = ((x.shapes || {})[u.type] || []).filter((f) => f !== u.formation);
      const shapeSel = h('select#nes-formation', null, ...shapes.map((f) => h('option', { value: f, text: f })));
      out.push(h('div.row', null, shapeSel, h('button.btn.small', { type: 'button', text: 'Change formation', on: { click: () => this.run({ form: { unit: u.id, formation: shapeSel.value } }) } })));
    }
    return out;
  }

  // ---- combat ------------------------------------------------------------------

  combat() {
    const out = [h('h3', { text: 'Combat' }), h('p.muted.small', { text: 'Resolve fire and shock on your own charts; record strength lost here, and the server rolls command unit loss (NES-4).' })];
    const sel = this.selected;
    if (!sel || sel.kind !== 'unit') { out.push(h('p.muted', { text: 'Select a unit.' })); return out; }
    const acts = this.offered(sel.id);
    if (acts.includes('loss')) {
      const pts = h('input#nes-loss-points', { type: 'number', min: '1', max: '99', value: '1' });
      const sit = h('select#nes-situation', null, ...['fire-maximum', 'fire-medium', 'fire-minimum', 'fire-extended', 'shock'].map((k) => h('option', { value: k, text: k.replace('-', ' ') })));
      out.push(h('div.row', null, h('span', { text: 'Loses' }), pts, sit,
        h('button#nes-loss.btn.small', { type: 'button', text: 'Record', on: { click: () => this.run({ loss: { unit: sel.id, points: Number(pts.value), situation: sit.value } }) } })));
    }
    for (const verb of ['bombard', 'charge']) {
      if (!acts.includes(verb)) continue;
      out.push(h('button.btn', { type: 'button', dataset: { pick: verb }, text: this.pick === verb ? `Tap the hex to ${verb}…` : verb === 'bombard' ? 'Fire at extended range at a hex' : 'Charge an adjacent hex',
        on: { click: () => { this.pick = verb; this.refresh(); } } }));
      if (this.pending && this.pending[verb]) {
        const box = h('div.odds');
        fill(box, ...this.oddsView({ forecast: this.forecast || [] }));
        out.push(box, h(`button#nes-${verb}.btn.primary`, { type: 'button', text: verb === 'bombard' ? `Fire at ${this.pending[verb].target}` : `Charge ${this.pending[verb].target}`, on: { click: () => this.run(this.pending) } }));
      }
    }
    return out;
  }

  // ---- the selected piece ----------------------------------------------------

  card(x) {
    const sel = this.selected;
    if (!sel) return h('p.muted.small', { text: 'Tap a counter for its state; tap a commander to shade his command radius.' });
    if (sel.kind === 'hq') {
      return h('div.unit-card', { dataset: { nesHq: sel.id } }, h('h3', { text: `Headquarters (${sel.id})` }),
        h('p.small', { text: 'An order sent from this hex, or from the army commander\'s, gets -2 on its delivery roll (NES-1).' }));
    }
    if (sel.kind === 'unit') {
      const u = this.unit(sel.id);
      if (!u) return h('span');
      return h('div.unit-card', { dataset: { nesUnit: u.id } },
        h('h3', { text: this.hooks.name(u.id) }),
        h('p', { text: `${u.cavalry || u.type}${u.class ? `, class ${u.class}` : ''}, ${u.formation}, strength ${u.strength}, ${u.status}` }),
        h('p.small', { text: `answers to ${this.hooks.name(u.leader)}` }));
    }
    const l = this.leader(sel.id);
    if (!l) return h('span');
    const box = (x.leaders || {})[l.id] || {};
    return h('div.unit-card', { dataset: { nesLeader: l.id } },
      h('h3', { text: this.hooks.name(l.id) }),
      h('p', { text: `${l.role}${l.reduced ? ' (reduced)' : ''}: bonus ${l.bonus}, rating ${l.rating}, radius ${l.radius}; ${l.state}` }),
      box.marker ? h('p', { dataset: { marker: l.id }, text: `marker: ${box.marker.replace('-', ' ')}` }) : null,
      box.order ? h('p', { text: `order: ${box.order}` }) : null,
      box.pending ? h('p', { text: `on its way: ${box.pending}` }) : null,
      l.retired ? h('p', { text: 'retired: counts as outside his division leader\'s radius' }) : null,
      this.offered(l.id).includes('retire') ? h('button#nes-retire.btn.small', { type: 'button', text: l.retired ? 'Back in command' : 'Retire (to the BC/FD)', on: { click: () => this.run({ retire: l.id }) } }) : null);
  }
}

/**
 * Draws the seat's chain of command for the Army tab: each command unit
 * under its superior, with its state, marker and order as the board says.
 * @param {HTMLElement} el
 * @param {{board:any, seat:{role:string, side?:string}, info:any, name:(id:string)=>string,
 *          colour:(side:string)=>string, onSelect:(id:string)=>void}} m
 */
export function renderNesOob(el, m) {
  const st = m.board.state;
  const x = m.board.extra || {};
  const leaders = st.leaders || [];
  const mine = (side) => m.seat.role === 'umpire' || side === m.seat.side;
  const under = new Map();
  for (const l of leaders) {
    const k = l.superior || '';
    if (!under.has(k)) under.set(k, []);
    under.get(k).push(l);
  }
  const units = new Map();
  for (const u of st.units || []) {
    if (!units.has(u.leader)) units.set(u.leader, []);
    units.get(u.leader).push(u);
  }
  const node = (l) => {
    const box = (x.leaders || {})[l.id] || {};
    const bits = [l.state];
    if (box.marker) bits.push(box.marker.replace('-', ' '));
    if (box.order) bits.push(box.order);
    const us = (units.get(l.id) || []).filter((u) => !u.gone);
    return h('li', { dataset: { leader: l.id } },
      h('button.linkish', { type: 'button', text: m.name(l.id), on: { click: () => m.onSelect(l.id) } }),
      h('span.muted.small', { text: ` ${l.role}, ${bits.join('; ')}` }),
      us.length ? h('div.small', { text: us.map((u) => `${m.name(u.id)} (${u.strength})`).join(', ') }) : null,
      (under.get(l.id) || []).length ? h('ul', null, ...(under.get(l.id) || []).map(node)) : null);
  };
  const roots = (under.get('') || []).filter((l) => mine(l.side));
  fill(el, ...roots.map((l) => {
    const side = (m.info.sides || []).find((sd) => sd.id === l.side);
    return h(`section.army.c-${m.colour(l.side)}`, { dataset: { side: l.side } },
      h('h3.army-name', null, h('span.swatch'), side ? side.name : l.side),
      h('ul.tree', null, node(l)));
  }));
}

/** The rows of the order sheet: each command unit's order in force and on its way, in the board's words. */
function sheetRows(c) {
  const x = c.board.extra || {};
  return Object.entries(x.leaders || {}).filter(([, b]) => b.order || b.pending)
    .map(([id, b]) => ({ id: c.nameGeneral(id), words: [b.order, b.pending && `on its way: ${b.pending}`].filter(Boolean).join('; '), live: true }));
}

/** NES's page module: the hex map and the command panel. */
export default {
  hex: true,
  MapView: HexUnitsView,
  Panel: NesPanel,
  oob: (el, c) => renderNesOob(el, { board: c.board, seat: c.seat, info: c.info, name: c.nameGeneral, colour: c.colour, onSelect: (id) => c.select({ kind: 'general', id }) }),
  sheet: (el, c) => renderWordsSheet(el, { info: c.info, rows: sheetRows(c), where: c.whereLeaders(), sideName: c.sideName }),
};
