// The command panel of a class dice game (CD): what activates (a unit, a
// coherent brigade group, a division), with the modifiers, the command
// style's penalty and the exact odds of the roll; then the moves of what
// rolled, with each move's cost and any disruptive terrain roll; and the
// table's records (reliefs, retreats, the skirmish screen, losses,
// marks). Everything it offers comes from the server's board; the page
// works out no rule.

import { h, fill, num, pt, tenth, deg, count, kinded } from '../dom.js';
import { sentence } from '../api.js';
import { CommandPanel } from './bp.js';
import { BrigadeView, brigadeRole } from './common/table-units.js';
import { armWord } from './common/arms.js';
import { renderOob } from '../oob.js';
import { renderSheet } from '../sheet.js';

const FACINGS = [['N', 0], ['NE', 45], ['E', 90], ['SE', 135], ['S', 180], ['SW', 225], ['W', 270], ['NW', 315]];

export class CdPanel extends CommandPanel {
  /**
   * Draws the panel for the board, with the selected piece.
   * @param {any} board @param {{kind:string,id:string}|null} selected
   */
  update(board, selected) {
    this.board = board;
    this.selected = selected;
    const x = board.extra || {};
    const info = board.game;
    const parts = [h('p.form-status', { text: info.over ? 'The game is over.' : `${info.phase.replace(/-/g, ' ')}, ${info.step} step.` })];
    if (this.result) parts.push(h('p#cd-result.result', { text: this.result }));
    if (this.picking) {
      const p = this.picking;
      parts.push(h('p#cd-picking.hint', null, `Tap the table where ${this.hooks.name(p.unit)} ${p.verb === 'retire' ? 'retires to' : 'comes back, at its division\'s rear'}. `,
        h('button.btn.small', { type: 'button', text: 'Cancel', on: { click: () => { this.picking = null; this.refresh(); this.hooks.redraw(); } } })));
    }
    // A seat that does not act in this step is offered nothing: it is
    // told why (the board's why, else whose turn it is).
    const acts = !info.over && (info.verbs || []).includes('activate');
    if (!info.over && info.step === 'activate' && !acts) {
      parts.push(h('p#cd-waiting.muted', { text: info.why || 'The other side acts now.' }));
    }
    if (acts && info.step === 'activate') {
      parts.push(h('p#cd-style.small', { text: `Command style ${x.style || '—'}: ${x.rolls} activation roll${x.rolls === 1 ? '' : 's'} made this turn; the next takes ${x['next-penalty'] || 0} (CD-5).` }));
      parts.push(...this.activations(x));
      const screened = this.board.state.units.filter((u) => this.offered(u.id).includes('recall'));
      if (screened.length) {
        parts.push(h('h3', { text: 'Skirmish screen' }),
          h('div.buttons', null, ...screened.map((u) => h('button.btn.small', { type: 'button', dataset: { recall: u.id }, text: `Recall ${this.hooks.name(u.id)}`,
            on: { click: () => this.pick('recall', u.id) } }))));
      }
    }
    parts.push(this.unitPanel(x));
    fill(this.el, ...parts);
  }

  /** What may activate now, from the selected unit or division. */
  activations(x) {
    const out = [h('h3', { text: 'Activate' })];
    const sel = this.selected && this.selected.kind === 'unit' ? this.unit(this.selected.id) : null;
    const choices = [];
    if (sel && this.offered(sel.id).includes('activate')) {
      choices.push([`${this.hooks.name(sel.id)} alone`, { activate: { unit: sel.id } }]);
      const group = ((x.groups || {})[sel.brigade] || []).find((g) => g.includes(sel.id));
      if (group && group.length > 1) choices.push([`group of ${this.hooks.name(sel.brigade)}: ${group.map((id) => this.hooks.name(id)).join(', ')}`, { activate: { units: group } }]);
    }
    const divs = Object.entries(x.divisions || {});
    for (const [id, d] of divs) {
      if (d.ready && this.offered(id).includes('activate') && (!sel || sel.division === id)) choices.push([`${kinded('division', this.hooks.name(id))} (${count(d.units.length, 'unit', 'units')})`, { activate: { division: id } }]);
    }
    if (!choices.length) {
      out.push(h('p.muted', { text: sel ? `${this.hooks.name(sel.id)} cannot activate now.` : 'Tap a unit of yours to activate it, its brigade group or its division.' }));
    }
    if (sel) {
      const box = (x.units || {})[sel.id] || {};
      const mods = Object.entries(box.modifiers || {}).map(([k, v]) => `${k} ${v > 0 ? '+' : ''}${v}`);
      out.push(h('p.small', { dataset: { command: sel.id }, text: box.command ? `${this.hooks.name(sel.id)} is in command radius.` : `Out of command radius: ${box.why}; it moves only alone, by local initiative.` }));
      if (mods.length) out.push(h('p.small', { text: `Its modifiers: ${mods.join(', ')}.` }));
    }
    for (const [id, d] of divs) {
      if (!d.ready && sel && sel.division === id) out.push(h('p.muted.small', { text: `Division ${this.hooks.name(id)} cannot move as one: ${d.why}` }));
    }
    for (const [label, cmd] of choices) {
      const oddsBox = h('div.odds');
      out.push(h('div.activation', { dataset: { activate: JSON.stringify(cmd.activate) } },
        h('p', { text: label }), oddsBox,
        h('button.btn.primary.small', { type: 'button', text: 'Roll to activate', disabled: this.busy, dataset: { roll: label }, on: { click: async () => {
          if (this.busy) return;
          this.busy = true;
          await this.run(cmd);
          this.busy = false;
        } } })));
      this.showOdds(oddsBox, cmd);
    }
    return out;
  }

  unitPanel(x) {
    const sel = this.selected;
    if (!sel || sel.kind !== 'unit') return h('p.muted.small', { text: (this.board.game.verbs || []).includes('move') ? 'Tap a unit for its state; drag an activated one to move it (its group moves with it).' : 'Tap a unit for its state.' });
    const u = this.unit(sel.id);
    if (!u) return h('span');
    const box = (x.units || {})[u.id] || {};
    const marks = [u.shaken ? 'shaken' : '', u.disordered ? 'disordered' : '', u.smoke ? 'in smoke' : '', u['moved-last-turn'] ? 'moved last turn' : '', box.cover ? 'in cover' : '', box.block || ''].filter(Boolean);
    const rows = [
      h('h3', { text: this.hooks.name(u.id) }),
      h('p', { text: `${u.type}${u.gun ? ` (${u.gun}#)` : ''}, ${u.formation}, facing ${deg(u.facing)}; class dice ${u.dice}` }),
      h('p', { dataset: { casualties: u.id }, text: `CW ${u.cw ?? '—'}, casualties ${u.casualties || 0}, ${count(u.stands, 'stand', 'stands')}${u.steps ? `, ${count(u.steps, 'casualty step', 'casualty steps')}` : ''}` }),
    ];
    if (marks.length) rows.push(h('p.marks', { text: marks.join('; ') }));
    const acts = this.offered(u.id);
    if (u.act > 0) rows.push(h('p', { dataset: { left: u.id }, text: u.factor ? `Activated ${u.factor === 1 ? 'x1' : `x${u.factor}`}: ${tenth(box.left || 0)}″ of its move left in ${u.formation} on open ground.` : 'Activated: no move this turn.' }));
    if (acts.includes('move')) {
      const shapes = (this.board.shapes || {})[u.type] || [];
      const shapeSel = h('select#cd-formation', null, ...shapes.map((f) => h('option', { value: f, text: f, selected: f === u.formation })));
      const facing = u.facing || 0;
      const facings = FACINGS.some(([, d]) => d === facing) ? FACINGS : [['as now', facing], ...FACINGS];
      const faceSel = h('select#cd-facing', null, ...facings.map(([n, d]) => h('option', { value: String(d), text: `${n} (${num(d)}°)`, selected: d === facing })));
      rows.push(h('div.row', null, shapeSel, faceSel, h('button.btn.small', { type: 'button', text: 'Change', on: { click: () => {
        const mv = { unit: u.id };
        if (shapeSel.value !== u.formation) mv.formation = shapeSel.value;
        if (Number(faceSel.value) !== facing) mv.facing = Number(faceSel.value);
        this.run({ move: mv });
      } } })));
    }
    const buttons = [];
    if (acts.includes('relieve')) {
      const others = this.board.state.units.filter((v) => v.id !== u.id && this.offered(v.id).includes('relieve'));
      for (const v of others) buttons.push([`Relieve ${this.hooks.name(v.id)}`, { relieve: { unit: u.id, relieved: v.id } }]);
    }
    if (acts.includes('screen')) buttons.push(['To the skirmish screen', { screen: { unit: u.id } }]);
    if (acts.includes('retire')) buttons.push(['Retire (morale loss)…', null, () => this.pick('retire', u.id)]);
    if (acts.includes('mark')) {
      buttons.push([u.shaken ? 'Mark not shaken' : 'Mark shaken', { mark: { unit: u.id, shaken: !u.shaken } }]);
      buttons.push([u.disordered ? 'Mark not disordered' : 'Mark disordered', { mark: { unit: u.id, disordered: !u.disordered } }]);
      buttons.push([u.smoke ? 'Clear smoke' : 'Mark in smoke', { mark: { unit: u.id, smoke: !u.smoke } }]);
    }
    if (buttons.length) rows.push(h('div.buttons', null, ...buttons.map(([label, cmd, then]) => h('button.btn.small', { type: 'button', text: label, dataset: { cmd: cmd ? Object.keys(cmd)[0] : 'retire' }, on: { click: () => (then ? then() : this.run(cmd)) } }))));
    return h('div.unit-card', { dataset: { cdUnit: u.id } }, ...rows);
  }

  /** Asks for a point of the table for a unit's retreat or recall. */
  pick(verb, unit) {
    this.picking = { verb, unit };
    this.refresh();
    this.hooks.redraw();
  }

  /** The point tapped for the command being picked. @param {number[]} p */
  async onPick(p) {
    const pk = this.picking;
    if (!pk) return;
    this.picking = null;
    await this.run({ [pk.verb]: { unit: pk.unit, to: p } });
    this.hooks.redraw();
  }

  oddsView(res) {
    return (res.forecast || []).map((f) => h('div.forecast', null,
      h('p.small', { text: `${f.table || 'no roll'}${f.odds ? `, ${f.odds.dice}${f.odds.modifier ? ` ${f.odds.modifier > 0 ? '+' : ''}${f.odds.modifier}` : ''}` : ''}` }),
      f.odds ? h('table.odds-table', null, ...f.odds.outcomes.map((o) => h('tr', null,
        h('td', { text: o.result }), h('td.num', { text: `${(o.probability * 100).toFixed(1)}%` }), h('td.muted', { text: o.exact })))) : null,
      f.note ? h('p.muted.small', { text: f.note }) : null));
  }
}


/**
 * CD's table map: units on their footprints (BrigadeView), each with its
 * combat value in its tooltip and, when it activates, its movement factor
 * (NM: it may not move); one out of its commander's radius says so.
 */
class CdMapView extends BrigadeView {
  footprintText(u) { return u.act ? (u.factor ? `x${u.factor}` : 'NM') : ''; }

  casualtyNote(u) { return `, CW ${u.cw ?? '—'}`; }

  commandNote(u, box) { return box.command ? '' : ', out of command radius'; }
}

/** A unit's card: its marks, combat value and casualties; its commands are in the Command tab. */
function unitCard(u, c) {
  const marks = [u.disordered ? 'disordered' : '', u.shaken ? 'shaken' : '', (u.engaged || []).length ? 'in combat' : ''].filter(Boolean);
  return h('div', null,
    h(`h4.c-${c.colour(u.side)}`, null, h('span.swatch'), c.name(u.id)),
    h('p', { text: `${u.type} · ${u.formation}${marks.length ? ` · ${marks.join(', ')}` : ''}` }),
    h('p.muted.small', { text: `CW ${u.cw ?? '—'} · casualties ${u.casualties || 0} · ${count(u.stands, 'stand', 'stands')} · ${c.name(u.brigade)} · at ${pt(u.at)}, facing ${deg(u.facing)}` }));
}

/** A commander's card, with his loss when the server offers it (CD-8). */
function generalCard(g, c) {
  return h('div', null,
    h(`h4.c-${c.colour(g.side)}`, null, h('span.swatch'), g.name || g.id),
    h('p', { text: `commands ${c.name(g.commands)}${g.lost ? ' (lost)' : ''}` }),
    h('p.muted.small', { text: `rated ${g.rating}${g.bonus ? ` ${g.bonus > 0 ? '+' : ''}${g.bonus}` : ''} · at ${pt(g.at)}` }),
    c.offers(g.id).includes('lose') ? h('button.btn.small.danger', { type: 'button', dataset: { lose: g.id }, text: 'Killed or disabled', title: 'CD-8: the next in command takes over',
      on: { click: () => c.act({ lose: g.id }, `${g.name || g.id} is lost.`) } }) : null);
}

/** CD's page module: units on footprints, the activation panel, no written orders. */
export default {
  hex: false,
  MapView: CdMapView,
  Panel: CdPanel,
  oob: (el, c) => renderOob(el, { ...c.oobModel(), unitWords: armWord }),
  sheet: (el, c) => renderSheet(el, c.sheetModel({ role: (g) => brigadeRole(g, c.name) })),
  cards: { unit: unitCard, general: generalCard },
};
