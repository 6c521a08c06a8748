// The command panel of a Line of Battle game (LOB) on its hex map: the
// army commander's order with the exact odds of his command roll and its
// delivery before it is issued, releases and initiative with their odds,
// the side's orders with their stage (issued, in delivery, awaiting
// acceptance, accepted, executing, ...), the odds of the acceptance, fluke
// stoppage and recovery rolls to come, skedaddles and ending orders, moves
// picked from a piece's reach (the server finds the path and its cost, and
// says why a hex is refused), formations and losses. The map adds each
// Command's HQ, the orders' objectives and the selected Command's radius.
// Everything it offers and every number it shows comes from the server
// (the board's offers and extra, and the forecasts it asks for); the page
// works out no rule.

import { h, s, fill } from '../dom.js';
import { sentence } from '../api.js';
import { HexUnitsView } from './common/hex-units.js';
import { NesPanel } from './nes.js';
import { renderWordsSheet } from '../sheet.js';

/** The letter on a leader's counter, by the kind of his formation. */
const LETTER = { army: 'A', corps: 'C', division: 'D', battalion: 'Ar', brigade: 'B' };

/** The commands that end a Command's order, given at once: verb, button label. */
const ENDINGS = [['fulfil', 'Order fulfilled'], ['futile', 'Attack futile']];

/** Words for a board key: in-delivery, in delivery. @param {string} k */
const words = (k) => (k || '').replace(/-/g, ' ');

/** Whether an order is still to act on, as the board says. @param {{live:boolean}} o */
const live = (o) => !!o.live;

/**
 * The board's movement box of a selected piece: a unit's, or a leader's or
 * an HQ's (movement left and the hexes it reaches).
 * @param {any} x the board's extra @param {any} sel
 */
function moverBox(x, sel) {
  if (!sel) return null;
  if (sel.kind === 'unit') return (x.units || {})[sel.id] || null;
  return (x.movers || {})[sel.kind === 'hq' ? `hq:${sel.id}` : sel.id] || null;
}

/**
 * A select of values, labelled each by label, that calls set with the
 * value picked.
 * @param {string} id @param {string[]} values @param {string} value
 * @param {(v:string)=>void} set @param {(v:string)=>string} label
 */
function choice(id, values, value, set, label) {
  const el = h(`select#${id}`, { on: { change: () => set(el.value) } },
    ...values.map((v) => h('option', { value: v, text: label(v), selected: v === value })));
  return el;
}

/** A labelled field of a form. @param {string} label @param {Node} control */
const field = (label, control) => h('label.field', null, h('span', { text: label }), control);

/** A small button that gives a command. @param {string} label @param {() => void} click @param {object} [dataset] */
const button = (label, click, dataset) => h('button.btn.small', { type: 'button', dataset, text: label, on: { click } });

export class LobPanel extends NesPanel {
  /** @param {HTMLElement} el @param {import('./nes.js').Hooks} hooks */
  constructor(el, hooks) {
    super(el, hooks);
    this.condition = '';
    this.reserve = '';
    /** The formation picked for each order whose reserve its Command's leader names. @type {Record<string, string>} */
    this.named = {};
    /** @type {string[]} */ this.with = [];
    /** The initiative form: open, its choices, and the leader last taken from the map. */
    this.init = { open: false, leader: '', purpose: '', formation: '', with: '', seen: '' };
    /** The server's words on the move the overlay previews. */
    this.said = '';
    /** The umpire's choice of a reinforcement and the road hex it enters at if blocked. */
    this.entering = this.exit = '';
  }

  /** The ids the board offers verb for. @param {string} verb */
  offering(verb) { return Object.entries(this.board.offers || {}).filter(([, verbs]) => verbs.includes(verb)).map(([id]) => id); }

  /** The formations of a side, in the order of battle. @param {string} side */
  formations(side) { return (this.board.state.formations || []).filter((f) => f.side === side); }

  /** The key of the board's offers for a selected piece. */
  key(sel) { return !sel ? '' : sel.kind === 'hq' ? `hq:${sel.id}` : sel.id; }

  /** The move command for the selected piece to hex at. */
  moveOf(sel, at) {
    if (sel.kind === 'unit') return { unit: sel.id, to: at };
    if (sel.kind === 'general') return { leader: sel.id, to: at };
    return ((this.board.extra || {}).hq || {})[sel.id] ? { 'army-hq': true, to: at } : { hq: sel.id, to: at };
  }

  /** Redraws the panel and the map. */
  redo() {
    this.refresh();
    this.hooks.redraw();
  }

  /** A tap on hex p: an objective, a hex to move or post to, or none. @param {number[]} p */
  async onPick(p) {
    const sel = this.selected;
    const at = this.label(p);
    if (!this.pick) {
      // A tap on a hex the selected unit reaches picks it to move to.
      const box = moverBox(this.board.extra || {}, sel);
      const reach = ((box && box.reach) || []).some((c) => this.label(c.at) === at);
      if (!reach || !this.offered(this.key(sel)).includes('move')) return super.onPick(p);
    } else if (this.pick !== 'move' && this.pick !== 'post') {
      return super.onPick(p);
    }
    const cmd = this.pick === 'post' ? { post: { unit: sel.id, to: at } } : { move: this.moveOf(sel, at) };
    const f = await this.preview(cmd);
    const ok = !!f && !/refused/.test(f.note);
    // The map labels the route with its cost; the panel says the rest.
    this.overlay = f && { path: f.path, note: ok ? f.note : 'refused', ok };
    this.said = f ? f.note : '';
    // A move the rules refuse is not offered: the panel says why.
    this.pending = ok ? cmd : null;
    this.redo();
  }

  /** The server's forecast of cmd, or null when it refuses (its sentence in the banner). */
  async preview(cmd) {
    try {
      return (await this.ask(cmd)).forecast[0];
    } catch (err) {
      this.hooks.banner(sentence(err));
      return null;
    }
  }

  /** Forgets the forms' choices, the last result and the move being shown. */
  clear() {
    this.from = this.to = this.kind = this.note = this.condition = this.reserve = this.result = this.said = this.pick = '';
    this.objective = null;
    this.with = [];
    this.overlay = this.pending = null;
    this.init = { open: false, leader: '', purpose: '', formation: '', with: '', seen: '' };
    this.hooks.banner('');
  }

  /** Takes the selection; another piece forgets the move being shown. */
  reselect(sel) {
    const same = !!this.selected && !!sel && this.selected.kind === sel.kind && this.selected.id === sel.id;
    this.selected = sel;
    if (!same && this.pick !== 'objective') { this.pick = this.said = ''; this.overlay = null; this.pending = null; }
  }

  /** Draws the panel for the board, with the selected piece. */
  update(board, selected) {
    this.board = board;
    const { over, phase, step, turn } = board.game;
    if (this.at !== `${turn} ${phase}`) {
      // A new phase starts from clean forms: last phase's choices and
      // refusals do not carry over.
      if (this.at) this.clear();
      this.at = `${turn} ${phase}`;
    }
    this.reselect(selected);
    const x = board.extra || {};
    const parts = [h('p.form-status', { text: over ? 'The game is over.' : `${words(phase)} phase, ${step} step.` })];
    if (this.result) parts.push(h('p#lob-result.result', { text: this.result }));
    parts.push(this.army(x));
    // A seat that does not act in this step is offered nothing: it is
    // told why (the board's why, else whose turn it is).
    const acts = (board.game.verbs || []).some((v) => v !== 'ready' && v !== 'end');
    if (!over && board.game.player && !acts) parts.push(h('p#lob-waiting.muted', { text: board.game.why || 'The other side acts now.' }));
    if (!over) parts.push(...this.issueForm(x), ...this.releases(), ...this.initiative(x), ...this.moving(x), ...this.combat(), ...this.entries(x));
    parts.push(this.card(x), ...this.orderList(x), ...this.coming(x));
    fill(this.el, ...parts);
  }

  // ---- the army commander ------------------------------------------------------

  army(x) {
    const sd = (this.board.state.sides || []).find((d) => d.id === x.side);
    const who = sd ? this.hooks.name(sd.army) : 'The army commander';
    return h('div#lob-army', null,
      h('p.small', { text: `${who} ${x.rolled ? 'has made' : 'has not made'} his command roll this turn; he is ${x.aware ? 'aware' : 'unaware'}.` }),
      this.offered(`hq:${x.side}`).includes('aware') && button('Declare him aware', () => this.run({ aware: { side: x.side } }), { cmd: 'aware' }));
  }

  // ---- orders ------------------------------------------------------------------

  /** The Commands an order from leader l may go to, with the army HQ for the army commander. */
  recipients(x, l) {
    if (!l) return [];
    if (!l.army) return ((x.formations || {})[l.formation] || {}).subordinates || [];
    return x.recipients || [];
  }

  /** The formations under id, top down, for an order that names a reserve. */
  under(id) {
    return (this.board.state.formations || []).filter((f) => f.parent === id).flatMap((f) => [f.id, ...this.under(f.id)]);
  }

  /** The order the issue form holds, without its note and condition. */
  draft(battalions) {
    const issue = { from: this.from, to: this.to };
    if (this.to !== 'hq') issue.order = this.kind;
    if (this.objective) issue.objective = this.label(this.objective);
    if (this.reserve) issue.reserve = this.reserve;
    const withs = this.with.filter((id) => battalions.some((b) => b.id === id));
    if (withs.length) issue.with = withs;
    return issue;
  }

  /** The issue form: from, to, kind, objective, reserve, battalions, note, condition; the odds of the command roll, then the button. */
  issueForm(x) {
    // The army commander first, then the corps leaders.
    const senders = this.offering('issue').sort((a, b) => Number(!!(this.leader(b) || {}).army) - Number(!!(this.leader(a) || {}).army));
    if (!senders.length) return [];
    const sel = this.selected;
    if (sel && sel.kind === 'general' && senders.includes(sel.id)) this.from = sel.id;
    if (!senders.includes(this.from)) this.from = senders[0];
    const from = this.leader(this.from) || {};
    const tos = this.recipients(x, from);
    if (!tos.includes(this.to)) this.to = tos[0] || '';
    if (!this.kind) this.kind = (x.kinds || [])[0] || '';
    const reserves = this.kind === 'reserve' ? ['', ...this.under(this.to)] : [];
    if (!reserves.includes(this.reserve)) this.reserve = '';
    const army = this.to === 'hq';
    const battalions = army ? [] : this.formations(from.side).filter((f) => f.kind === 'battalion' && f.id !== this.to);
    const issue = this.draft(battalions);
    const set = (key) => (v) => { this[key] = v; this.refresh(); };
    const name = (id) => (id === 'hq' ? 'the army HQ (to move)' : this.hooks.name(id));
    const note = h('input#lob-note', { type: 'text', maxlength: '200', value: this.note, placeholder: 'e.g. hold the creek line', on: { input: () => { this.note = note.value; } } });
    const cond = h('input#lob-condition', { type: 'text', maxlength: '200', value: this.condition, placeholder: 'none: acted on once accepted', on: { input: () => { this.condition = cond.value; } } });
    const odds = h('div#lob-odds.odds', { 'aria-live': 'polite' });
    const give = async () => {
      const c = { ...issue };
      if (this.note) c.note = this.note;
      if (this.condition && !army) c.condition = this.condition;
      if (!(await this.run({ issue: c }))) return;
      // A new order starts from a clean form.
      this.objective = null;
      this.note = this.condition = this.reserve = '';
      this.with = [];
      this.redo();
    };
    if (this.to) this.showOdds(odds, { issue }, true);
    return [h('h3', { text: 'Issue an order' }),
      field('From', choice('lob-from', senders, this.from, set('from'), name)),
      field('To', choice('lob-to', tos, this.to, set('to'), name)),
      !army && field('Order', choice('lob-kind', x.kinds || [], this.kind, set('kind'), words)),
      this.objectiveRow(),
      reserves.length > 0 && field('Reserve', choice('lob-reserve', reserves, this.reserve, set('reserve'), (v) => {
        if (v) return name(v);
        // A corps is never a reserve: leaving it out leaves the choice to its leader.
        return ((x.formations || {})[this.to] || {}).kind === 'corps' ? 'left to its leader to name' : `${name(this.to)} itself`;
      })),
      battalions.length > 0 && this.battalionBoxes(battalions, issue.with || []),
      field('Note', note),
      !army && field('Condition', cond),
      odds,
      h('button#lob-issue.btn.primary.wide', { type: 'button', text: 'Issue the order', disabled: !this.to, on: { click: give } })];
  }

  /** Boxes to embed artillery battalions in the order. */
  battalionBoxes(battalions, chosen) {
    return h('fieldset.lob-with', null, h('legend', { text: 'With the artillery of' }), ...battalions.map((b) => {
      const box = h('input', { type: 'checkbox', value: b.id, checked: chosen.includes(b.id), on: { change: () => {
        this.with = box.checked ? [...chosen, b.id] : chosen.filter((id) => id !== b.id);
        this.refresh();
      } } });
      return h('label.check', null, box, ` ${this.hooks.name(b.id)}`);
    }));
  }

  /** The order's objective: tapped on the map, shown by its label. */
  objectiveRow() {
    const picking = this.pick === 'objective';
    return h('div.row', null,
      button(picking ? 'Tap its hex on the map…' : 'Pick the objective', () => { this.pick = 'objective'; this.redo(); }, { pick: 'objective' }),
      h('span#lob-objective', { text: this.objective ? this.label(this.objective) : 'none' }),
      this.objective && button('Clear', () => { this.objective = null; this.redo(); }));
  }

  /** Shows what cmd would meet in box; with draw, its path on the map. */
  async showOdds(box, cmd, draw = false) {
    await super.showOdds(box, cmd);
    if (!draw || this.pending) return;
    const f = ((this.cache.get(`${this.board.game.version} ${JSON.stringify(cmd)}`) || {}).forecast || [])[0];
    this.overlay = { path: (f && f.path) || [], ok: true, objective: this.objective };
    this.hooks.redraw();
  }

  /** Each reserve that may be released, with the odds of the roll. */
  releases() {
    const ids = this.offering('release');
    if (!ids.length) return [];
    return [h('h3', { text: 'Release a reserve' }), ...ids.map((id) => {
      const cmd = { release: { formation: id } };
      const odds = h('div.odds');
      this.showOdds(odds, cmd);
      return h('div.lob-release', { dataset: { release: id } }, odds, button(`Roll to release ${this.hooks.name(id)}`, () => this.run(cmd)));
    })];
  }

  /** An initiative roll: who, for what and for which formation, with its odds. */
  initiative(x) {
    const leaders = this.offering('initiative');
    if (!leaders.length) return [];
    const it = this.init;
    const head = h('h3', null, h('button#lob-init-open.linkish', { type: 'button', 'aria-expanded': String(it.open), text: it.open ? 'Initiative ▾' : 'Initiative ▸',
      on: { click: () => { it.open = !it.open; this.refresh(); } } }));
    if (!it.open) return [head];
    const sel = this.selected;
    if (sel && sel.kind === 'general' && leaders.includes(sel.id) && it.seen !== sel.id) it.leader = it.seen = sel.id;
    if (!leaders.includes(it.leader)) it.leader = leaders[0];
    if (!(x.purposes || []).includes(it.purpose)) it.purpose = (x.purposes || [])[0] || '';
    const side = (this.leader(it.leader) || {}).side;
    const forms = [side, ...this.formations(side).map((f) => f.id)];
    if (!forms.includes(it.formation)) it.formation = forms[1] || forms[0];
    const commands = ['', ...this.formations(side).filter((f) => f.kind !== 'brigade').map((f) => f.id)];
    const label = (id) => (id === side ? 'the army HQ' : id ? this.hooks.name(id) : 'none');
    const set = (key) => (v) => { it[key] = v; this.refresh(); };
    const cmd = { initiative: { leader: it.leader, purpose: it.purpose, formation: it.formation } };
    if (it.with) cmd.initiative.with = it.with;
    const odds = h('div#lob-init-odds.odds', { 'aria-live': 'polite' });
    this.showOdds(odds, cmd);
    return [head,
      field('Leader', choice('lob-init-leader', leaders, it.leader, set('leader'), (id) => this.hooks.name(id))),
      field('To', choice('lob-purpose', x.purposes || [], it.purpose, set('purpose'), words)),
      field('For', choice('lob-init-formation', forms, it.formation, set('formation'), label)),
      field('With', choice('lob-init-with', commands, it.with, set('with'), label)),
      odds,
      h('button#lob-initiative.btn', { type: 'button', text: 'Roll for initiative', on: { click: () => this.run(cmd) } })];
  }

  /**
   * The umpire's road hex for a reinforcement still to come, where it
   * enters if every hex of its entry area is held by the enemy (3.7a):
   * the reinforcements and hexes the server offers.
   */
  entries(x) {
    const ids = this.offering('enter');
    const exits = (x.exits || []).map((p) => this.label(p));
    if (!ids.length || !exits.length) return [];
    if (!ids.includes(this.entering)) this.entering = ids[0];
    if (!exits.includes(this.exit)) this.exit = exits[0];
    const set = (key) => (v) => { this[key] = v; this.refresh(); };
    return [h('h3', { text: 'Where a blocked reinforcement enters' }),
      h('p.muted.small', { text: 'If every hex of its entry area is held by the enemy when it arrives, it enters at this road hex leading off the map.' }),
      field('Reinforcement', choice('lob-enter-formation', ids, this.entering, set('entering'), (id) => this.hooks.name(id))),
      field('Road hex', choice('lob-enter-at', exits, this.exit, set('exit'), (v) => v)),
      button('Name the road hex', () => this.run({ enter: { formation: this.entering, at: this.exit } }), { cmd: 'enter' })];
  }

  /** The side's orders, each with its stage and what may be done with it now. */
  orderList(x) {
    const list = x.orders || [];
    if (!list.length) return [];
    const item = (o) => {
      const acts = [];
      if (o.condition && !o.met && this.offered(o.to).includes('condition')) acts.push(['Condition met', { condition: { order: o.id } }]);
      if (((x.formations || {})[o.to] || {}).order === o.id) {
        for (const [verb, label] of ENDINGS) if (this.offered(o.to).includes(verb)) acts.push([label, { [verb]: { formation: o.to } }]);
      }
      const when = !o.issued ? 'in force at the start' : `issued turn ${o.issued}${o.stage === 'in-delivery' ? `, arrives turn ${o.arrives}` : ''}`;
      return h('li', { dataset: { order: o.id, stage: o.stage, to: o.to }, class: live(o) ? null : 'ended' },
        h('span.stage', { dataset: { stage: o.stage }, text: words(o.stage) }), ' ', h('b', { text: o.id }), ` ${o.words}`,
        h('span.muted.small', { text: ` (${when})` }),
        acts.length > 0 && h('div.buttons', null, ...acts.map(([label, cmd]) => button(label, () => this.run(cmd), { cmd: Object.keys(cmd)[0] }))),
        this.naming(o));
    };
    return [h('h3', { text: 'Orders' }), h('ul#lob-orders.lob-orders', null, ...list.map(item))];
  }

  /**
   * For an order to establish a reserve that left the formation to its
   * Command's leader, once the server offers designate: the formation to
   * name, among those the server offers, and the button.
   */
  naming(o) {
    if (o.kind !== 'reserve' || o.reserve || o.parent || !this.offered(o.to).includes('designate')) return null;
    // The formations the server offers to be named (on the map, not in reserve).
    const under = this.under(o.to).filter((id) => this.offered(id).includes('designate'));
    if (!under.length) return null;
    if (!under.includes(this.named[o.id])) this.named[o.id] = under[0];
    const pick = choice(`lob-name-${o.id}`, under, this.named[o.id], (v) => { this.named[o.id] = v; }, (id) => this.hooks.name(id));
    return h('div.buttons', null, field('Reserve', pick),
      button('Name the reserve', () => this.run({ designate: { order: o.id, formation: this.named[o.id] } }), { cmd: 'designate' }));
  }

  /** The rolls the side's next command phase will make, with exact odds. */
  coming(x) {
    const rolls = (x.odds || []).map((o) => h('li', { dataset: { subject: o.subject, table: o.table } },
      h('b', { text: this.hooks.name(o.subject) }), ` ${o.why}: `,
      Object.entries(o.chance).map(([result, chance]) => `${words(result)} ${chance}`).join(', ')));
    return rolls.length ? [h('h3', { text: 'Rolls to come in the next command phase' }), h('ul#lob-coming.coming', null, ...rolls)] : [];
  }

  // ---- movement and combat -----------------------------------------------------

  /** Moving or posting the selected piece by a hex picked on the map; a unit's formation. */
  moving(x) {
    const sel = this.selected;
    const acts = this.offered(this.key(sel));
    const verb = acts.includes('move') ? 'move' : acts.includes('post') ? 'post' : '';
    const out = [];
    if (verb) {
      const box = moverBox(x, sel);
      out.push(h('h3', { text: verb === 'post' ? 'Post the battery' : 'Movement' }),
        box && h('p#lob-left', { text: `${this.hooks.name(sel.id)}: ${box.left} MP left this turn${box.out ? '; out of its Command\'s radius' : ''}. Tap a shaded hex to move there.` }),
        h('button#lob-pick-move.btn', { type: 'button', text: this.pick === verb ? 'Tap the hex…' : 'Choose a hex', on: { click: () => { this.pick = verb; this.refresh(); } } }));
      if (this.pending) {
        const [v, mv] = Object.entries(this.pending)[0];
        out.push(h('p#lob-path.small', { text: this.said }),
          h('button#lob-move.btn.primary', { type: 'button', text: `${v === 'post' ? 'Post' : 'Move'} to ${mv.to}`, on: { click: () => this.run(this.pending) } }));
      } else if (this.said && this.overlay && !this.overlay.ok) {
        out.push(h('p#lob-path.small', { text: this.said }));
      }
    } else if ((this.board.game.verbs || []).includes('move')) {
      out.push(h('h3', { text: 'Movement' }), h('p.muted', { text: 'Select a unit, leader or HQ with movement left; the hexes it reaches are shaded with their cost, those the rules refuse marked with the reason.' }));
    }
    if (sel && sel.kind === 'unit' && acts.includes('form')) {
      // The formations the unit's arm takes, as the server lists them.
      const u = this.unit(sel.id);
      const shapes = ((this.board.shapes || {})[u ? u.type : ''] || []).filter((name) => !u || name !== u.formation);
      const shape = h('select#lob-formation', { 'aria-label': 'Formation' }, ...shapes.map((name) => h('option', { value: name, text: name })));
      out.push(h('div.row', null, shape, button('Change formation', () => this.run({ form: { unit: sel.id, formation: shape.value } }), { cmd: 'form' })));
    }
    return out;
  }

  /** Strength lost by the selected unit, from the players' own charts. */
  combat() {
    const sel = this.selected;
    if (!sel || !this.offered(sel.id).includes('loss')) return [];
    const points = h('input#lob-loss-points', { type: 'number', min: '1', max: '99', value: '1', 'aria-label': 'Strength points lost' });
    return [h('h3', { text: 'Combat' }), h('p.muted.small', { text: 'Resolve fire and melee on your own charts; record the strength lost here.' }),
      h('div.row', null, h('span', { text: `${this.hooks.name(sel.id)} loses` }), points,
        button('Record the loss', () => this.run({ loss: { unit: sel.id, points: Number(points.value) } }), { cmd: 'loss' }))];
  }

  // ---- the selected piece ----------------------------------------------------

  /** The selected unit, leader or HQ: its state, its Command's status and order, and what its Command may do. */
  card(x) {
    const sel = this.selected;
    if (!sel) return h('p.muted.small', { text: 'Tap a counter for its state; a leader or an HQ shades its Command\'s radius.' });
    if (sel.kind === 'unit') {
      const u = this.unit(sel.id);
      if (!u) return h('span');
      const box = (x.units || {})[u.id] || {};
      return h('div.unit-card', { dataset: { lobUnit: u.id } }, h('h3', { text: this.hooks.name(u.id) }),
        h('p', { text: `${u.type} in ${u.formation || 'no formation'}, strength ${u.strength}, ${u.status}${u.posted ? ', posted' : ''}` }),
        h('p.small', { text: `${this.hooks.name(u.brigade)}, of ${this.hooks.name(u.command)}${box.out ? '; out of command radius' : ''}` }));
    }
    if (sel.kind === 'hq' && (x.hq || {})[sel.id]) {
      return h('div.unit-card', { dataset: { lobHq: sel.id } }, h('h3', { text: `Army HQ (${this.hooks.name(sel.id)})` }),
        h('p.small', { text: `at ${this.label(x.hq[sel.id])}` }),
        sel.id === x.side && x['hq-order'] ? h('p.small', { text: x['hq-order'] }) : null);
    }
    const l = sel.kind === 'general' ? this.leader(sel.id) : null;
    const id = l ? l.formation : sel.id;
    const box = (x.formations || {})[id];
    const rows = [h('h3', { text: l ? this.hooks.name(l.id) : `HQ of ${this.hooks.name(id)}` })];
    if (l) rows.push(h('p', { text: `${l.army ? 'army commander' : `leads ${this.hooks.name(id)} (${(box || {}).kind})`}: value ${l.value}, radius ${l.radius}` }));
    if (box) {
      const order = (x.orders || []).find((o) => o.id === box.order);
      const status = [(box.status || []).map(words).join(', '), box.acting && 'its leader acts as its HQ',
        box.arrives && !box.entered && `arrives turn ${box.arrives}`, box.recovery && `recovery, ${box.recovery} step next`].filter(Boolean);
      const acts = [...ENDINGS, ['skedaddle', 'Skedaddle']].filter(([verb]) => this.offered(id).includes(verb));
      rows.push(h('p.small', { dataset: { status: id }, text: status.join('; ') }),
        order && h('p.small', { text: `order ${order.id}: ${order.words}` }),
        acts.length > 0 && h('div.buttons', null, ...acts.map(([verb, label]) => button(label, () => this.run({ [verb]: { formation: id } }), { cmd: verb }))));
    }
    return h('div.unit-card', { dataset: { lobFormation: id } }, ...rows);
  }
}

/**
 * The hex map of an LOB game: the hex map with each Command's HQ counter,
 * the objectives of the seat's orders, the selected Command's radius
 * around its centre, and the reach of the selected unit with the hexes the
 * rules refuse crossed out.
 */
export class LobMapView extends HexUnitsView {
  /** The selected unit's, leader's or HQ's movement box. @param {any} sel */
  moverOf(sel) { return moverBox(this.model.extra || {}, sel); }

  /** The Command whose radius the selection shows: its centre and the hexes within its radius, as the board lists them. */
  radiusOf(sel) {
    const m = this.model;
    const x = m.extra || {};
    if (!sel) return null;
    if (sel.kind === 'general') {
      const l = (m.state.leaders || []).find((g) => g.id === sel.id);
      if (!l) return null;
      if (l.army) return { centre: l.at, within: (x.armies || {})[l.id] || [] };
      const f = (x.formations || {})[l.formation] || {};
      return (x.formations || {})[f.command] || null;
    }
    if (sel.kind === 'unit') {
      const u = (m.state.units || []).find((v) => v.id === sel.id);
      return u ? (x.formations || {})[u.command] || null : null;
    }
    return (x.formations || {})[sel.id] || null;
  }

  /** The selected unit's reach, the hexes refused marked with the reason; the selected Command's radius. */
  drawRanges() {
    super.drawRanges();
    const m = this.model;
    const x = m.extra || {};
    const sel = m.selected;
    if (sel && sel.kind === 'unit') {
      for (const c of ((x.units || {})[sel.id] || {}).reach || []) {
        const el = c.why && this.layers.ranges.querySelector(`[data-reach="${this.label(c.at)}"]`);
        if (el) { el.classList.add('refused'); el.dataset.why = c.why; }
      }
    }
    const r = this.radiusOf(sel);
    if (!r || !r.centre || !m.showRanges) return;
    const cells = [];
    for (const p of r.within || []) {
      cells.push(s('polygon.hx-radius', { points: this.corners(this.centre(p), 0.96), dataset: { radius: this.label(p) } }));
    }
    const c = this.centre(r.centre);
    cells.push(s('circle.hx-centre', { cx: c.x, cy: c.y, r: 0.18, dataset: { centre: this.label(r.centre) } }));
    this.layers.ranges.prepend(...cells);
  }

  /** The pieces and army HQs, each Command's HQ, and the objectives of the seat's orders still to act on. */
  drawPieces() {
    super.drawPieces();
    const x = this.model.extra || {};
    this.layers.generals.append(...Object.entries(x.formations || {}).filter(([, f]) => f.hq).map(([id, f]) => this.hqCounter(id, f)));
    const at = new Map();
    for (const o of (x.orders || []).filter((v) => v.objective && live(v))) {
      const k = this.label(o.objective);
      at.set(k, [...(at.get(k) || []), o]);
    }
    fill(this.layers.objectives, ...[...at.values()].map((orders) => this.objectiveMarker(orders)));
  }

  /** A Command's HQ counter: a flag with its kind's letter. @param {string} id @param {any} f its box */
  hqCounter(id, f) {
    const m = this.model;
    const c = this.centre(f.hq);
    const side = ((m.state.formations || []).find((g) => g.id === id) || {}).side;
    const sel = m.selected && m.selected.kind === 'hq' && m.selected.id === id;
    this.hit('hq', id, c, -0.44, -0.6);
    return s('g', { class: `hx-hq hx-chq c-${m.colour(side)}${sel ? ' selected' : ''}`, dataset: { hq: id }, transform: this.upright(c) },
      s('title', { text: `HQ of ${m.name(id)}` }),
      s('rect.hx-flag', { x: c.x - 0.62, y: c.y - 0.72, width: 0.36, height: 0.24 }),
      s('line.hx-pole', { x1: c.x - 0.62, y1: c.y - 0.72, x2: c.x - 0.62, y2: c.y - 0.3 }),
      s('text.hx-hqlbl', { x: c.x - 0.44, y: c.y - 0.54, text: LETTER[f.kind] || '' }));
  }

  /** The marker of the orders with one objective, labelled with the orders that are not relays. */
  objectiveMarker(orders) {
    const c = this.centre(orders[0].objective);
    const own = orders.filter((o) => !o.parent);
    const who = [...new Set((own.length ? own : orders).map((o) => this.model.name(o.to)))].join(', ');
    return s('g.hx-objective', { dataset: { objective: orders.map((o) => o.id).join(' ') }, transform: this.upright(c) },
      s('title', { text: orders.map((o) => `${o.id}: ${o.words}`).join('\n') }),
      s('circle', { cx: c.x, cy: c.y, r: 0.5 }),
      this.mark('text.lbl.hx-objlbl', who, c, 0, 0, { r: 0.5, slots: ['b', 't', 'r', 'l'], prio: 1 }));
  }

  /** The route of a forecast, and the objective the issue form holds. */
  drawOverlay() {
    super.drawOverlay();
    const p = this.model.overlay && this.model.overlay.objective;
    if (!p) return;
    const c = this.centre(p);
    this.layers.routes.append(s('g.hx-objective.picked', { dataset: { picked: this.label(p) } }, s('circle', { cx: c.x, cy: c.y, r: 0.5 })));
  }

  /** A unit's counter, marked when out of its Command's radius. */
  unitCounter(u, k, n) {
    const g = super.unitCounter(u, k, n);
    const box = ((this.model.extra || {}).units || {})[u.id] || {};
    if (box.out) g.classList.add('out');
    g.querySelector('title').textContent = `${this.model.name(u.id)}: ${u.type}, strength ${u.strength}, ${this.model.name(u.brigade)}${box.out ? ', out of command radius' : ''}`;
    return g;
  }

  /** A leader's counter, lettered by his formation's kind, with its status. */
  leaderCounter(l, k, n, x) {
    const f = (x.formations || {})[l.formation] || {};
    const kind = l.army ? 'army' : f.kind;
    return super.leaderCounter({ ...l, role: kind, state: (f.status || []).join(' ') }, k, n, {});
  }

  /** The letter of the kind of formation he commands. */
  leaderLetter(l) { return LETTER[l.role] || ''; }
}

/**
 * Draws the seat's order of battle for the Army tab: each Command under
 * its parent with its leader, its status, the order it executes and the
 * orders on their way to it, each with its stage as the board says.
 * @param {HTMLElement} el
 * @param {{board:any, seat:{role:string, side?:string}, info:any, name:(id:string)=>string,
 *          colour:(side:string)=>string, onSelect:(id:string)=>void}} m
 */
export function renderLobOob(el, m) {
  const st = m.board.state;
  const x = m.board.extra || {};
  const forms = st.formations || [];
  const orders = x.orders || [];
  const mine = (side) => m.seat.role === 'umpire' || side === m.seat.side;
  const stage = (o) => h('span.stage', { dataset: { order: o.id, stage: o.stage }, text: `${o.id} ${words(o.stage)}` });
  const node = (f) => {
    const box = (x.formations || {})[f.id] || {};
    const doing = orders.find((o) => o.id === box.order);
    const coming = orders.filter((o) => o.to === f.id && o.id !== box.order && live(o));
    const units = (st.units || []).filter((u) => u.brigade === f.id && !u.gone);
    const kids = forms.filter((g) => g.parent === f.id);
    return h('li', { dataset: { formation: f.id } },
      h('button.linkish', { type: 'button', text: m.name(f.id), on: { click: () => m.onSelect(f.leader) } }),
      h('span.muted.small', { text: ` ${f.kind}, ${m.name(f.leader)}${(box.status || []).length ? `; ${box.status.map(words).join(', ')}` : ''}${box.arrives && !box.entered ? `; arrives turn ${box.arrives}` : ''}` }),
      doing || coming.length ? h('div.small', null, ...[doing, ...coming].filter(Boolean).map(stage)) : null,
      units.length ? h('div.small', { text: units.map((u) => `${m.name(u.id)} (${u.strength})`).join(', ') }) : null,
      kids.length ? h('ul', null, ...kids.map(node)) : null);
  };
  fill(el, ...(st.sides || []).filter((sd) => mine(sd.id)).map((sd) => {
    const side = (m.info.sides || []).find((d) => d.id === sd.id);
    return h(`section.army.c-${m.colour(sd.id)}`, { dataset: { side: sd.id } },
      h('h3.army-name', null, h('span.swatch'), side ? side.name : sd.id),
      h('p', null, h('button.linkish', { type: 'button', text: m.name(sd.army), on: { click: () => m.onSelect(sd.army) } }), h('span.muted.small', { text: ', army commander' })),
      h('ul.tree', null, ...forms.filter((f) => f.side === sd.id && !f.parent).map(node)));
  }));
}

/** LOB's page module: the hex map with Commands' HQs and orders, and the command panel. */
export default {
  hex: true,
  MapView: LobMapView,
  Panel: LobPanel,
  oob: (el, c) => renderLobOob(el, { board: c.board, seat: c.seat, info: c.info, name: c.nameGeneral, colour: c.colour, onSelect: (id) => c.select({ kind: 'general', id }) }),
  // The order sheet: the seat's orders in the board's words.
  sheet: (el, c) => renderWordsSheet(el, {
    info: c.info, rows: ((c.board.extra || {}).orders || []).map((o) => ({ id: o.id, words: o.words, live: !!o.live })), where: c.whereLeaders(), sideName: c.sideName,
  }),
};
