// A table map whose units stand on footprints the server sizes: each
// unit's corners, front and rear arcs, moves left and legal targets come
// in the board (its extra), with the proximity band or the command radii
// it draws. A unit's position is the centre of its front edge. What a
// rule set writes on a footprint and in its tooltip, and which units it
// groups, its module's view supplies (footprintText, casualtyNote,
// stateNote, commandNote, groupOf, and the map's unitClasses and hatched).

import { s, fill, num, pt, tenth, deg } from './dom.js';
import { MapView, isSel, lg } from './map.js';

export class FootprintView extends MapView {
  get footprints() { return true; }

  legendKey() { return [lg('lg-unit', 'unit (front edge dark)'), lg('lg-gen', 'general')]; }

  /** The kind of formation a general commands; one who commands none commands the army. */
  generalKind(g, kindOf) { return kindOf[g.commands || g.side] || 'army'; }

  /**
   * The units grouped with u, as the board's extra finds them (u among
   * them), shown when u is selected: none here.
   * @param {any} x the board's extra @param {any} u
   * @returns {string[]}
   */
  groupOf(x, u) { return []; }

  /** The words on a unit's footprint: none here. */
  footprintText(u) { return ''; }

  /** What follows the casualties in a unit's tooltip: none here. */
  casualtyNote(u) { return ''; }

  /** What follows the casualties in a unit's tooltip of its state (disordered, say): none here. */
  stateNote(u) { return ''; }

  /** What follows a unit's position and moves left in its tooltip: none here. */
  commandNote(u, box) { return ''; }

  drawReach() { this.drawProximity(); }

  drawRanges() { this.drawArcs(); }

  /** Each unit with a box on the board on its footprint; a screened one left out. */
  unitPieces() {
    const m = this.model;
    const x = m.extra || { units: {} };
    const sel = m.selected && m.selected.kind === 'unit' ? x.units[m.selected.id] : null;
    const targets = new Set([...((sel && sel.targets) || []), ...((sel && sel.charges) || [])]);
    // The selected unit's group, as the server finds it.
    const selUnit = m.selected && m.selected.kind === 'unit' ? m.state.units.find((u) => u.id === m.selected.id) : null;
    const grouped = new Set(selUnit ? this.groupOf(x, selUnit) : []);
    return (u, at) => {
      const box = x.units[u.id];
      if (!box) return undefined;
      if (box.screened) return null;
      return this.footprintUnit(u, at, box, targets.has(u.id), grouped.size > 1 && grouped.has(u.id));
    };
  }

  /** The band within the board's proximity distance of each enemy unit, or the command radii the board gives. */
  drawProximity() {
    const m = this.model;
    const x = m.extra;
    if (x.radii) { this.drawRadii(); return; }
    const groups = new Map();
    if (m.showReach) {
      for (const u of m.state.units) {
        const box = x.units[u.id];
        if (!box || !u['on-table'] || (m.seat.role !== 'umpire' && u.side === m.seat.side)) continue;
        if (!groups.has(u.side)) groups.set(u.side, []);
        groups.get(u.side).push(s('polygon', { points: box.corners.map((p) => p.join(',')).join(' '), 'stroke-width': 2 * x.proximity }));
      }
    }
    const gs = [];
    for (const [side, polys] of groups) {
      gs.push(s(`g.proximity.c-${m.colour(side)}`, { dataset: { side } }, s('title', { text: `Within ${num(x.proximity)}″ of the units of ${side}: only forward in the front arc or back in the rear arc` }), ...polys));
    }
    fill(this.layers.reach, ...gs);
  }

  /** The command radii of the seat's commanders, as the board gives them. */
  drawRadii() {
    const m = this.model;
    const out = [];
    if (m.showReach) {
      for (const r of m.extra.radii || []) {
        const g = m.state.generals.find((x) => x.id === r.general);
        if (!g) continue;
        out.push(s(`circle.radius.c-${m.colour(g.side)}`, { cx: r.at[0], cy: r.at[1], r: r.radius, 'vector-effect': 'non-scaling-stroke', dataset: { radius: r.general } },
          s('title', { text: `${g.name || g.id}: command radius ${num(r.radius)}″` })));
      }
    }
    fill(this.layers.reach, ...out);
  }

  /** The selected unit's front and rear arcs, if the board gives them, and the ground its moves left may cover. */
  drawArcs() {
    const m = this.model;
    const x = m.extra;
    const out = [];
    const sel = m.selected && m.selected.kind === 'unit' ? m.state.units.find((u) => u.id === m.selected.id) : null;
    const box = sel && x.units[sel.id];
    if (box && !box.front) {
      if (box.left > 0) out.push(s(`circle.allowance.c-${m.colour(sel.side)}`, { cx: sel.at[0], cy: sel.at[1], r: box.left, 'vector-effect': 'non-scaling-stroke', dataset: { allowance: sel.id } }, s('title', { text: `${tenth(box.left)}″ of its move left on open ground` })));
    } else if (box) {
      out.push(s(`polygon.arc.front.c-${m.colour(sel.side)}`, { points: box.front.map((p) => p.join(',')).join(' '), dataset: { arc: 'front' } }));
      out.push(s(`polygon.arc.rear.c-${m.colour(sel.side)}`, { points: box.rear.map((p) => p.join(',')).join(' '), dataset: { arc: 'rear' } }));
      if (box.left > 0) out.push(s(`circle.allowance.c-${m.colour(sel.side)}`, { cx: sel.at[0], cy: sel.at[1], r: box.left, 'vector-effect': 'non-scaling-stroke', dataset: { allowance: sel.id } }, s('title', { text: `${tenth(box.left)}″ of moves left` })));
    }
    fill(this.layers.ranges, ...out);
  }

  /**
   * A unit by its footprint behind its front edge, as the server sizes
   * it, with the marks its rule set's view writes on it.
   */
  footprintUnit(u, at, box, target, grouped = false) {
    const m = this.model;
    const [c0, c1, c2] = box.corners;
    const w = Math.hypot(c1[0] - c0[0], c1[1] - c0[1]);
    const d = Math.hypot(c2[0] - c1[0], c2[1] - c1[1]);
    const ref = { kind: 'unit', id: u.id };
    const cls = ['piece', 'unit', 'footprint', `c-${m.colour(u.side)}`, `t-${u.type}`, `f-${u.formation}`, ...this.unitClasses(u)];
    if (target) cls.push('target');
    if (grouped) cls.push('grouped');
    if (this.movable(ref)) cls.push('movable');
    if (isSel(m, ref)) cls.push('selected');
    if (this.ticked(ref)) cls.push('ticked');
    const spin = (u.facing || 0) + this.turn.deg;
    const up = spin % 360 ? `rotate(${-spin} 0 ${d / 2})` : null;
    // the middle of its footprint, behind its front edge
    const a = ((u.facing || 0) * Math.PI) / 180;
    const mid = [at[0] - Math.sin(a) * d / 2, at[1] + Math.cos(a) * d / 2];
    const r = this.extent(w, d, u.facing || 0);
    this.obstacle(mid, r);
    this.hit('unit', u.id, mid);
    const lines = [`${u.id} — ${u.type}, ${u.formation}`, `casualties ${u.casualties || 0}${this.casualtyNote(u)}${this.stateNote(u)}`,
      `at ${pt(u.at)}, facing ${deg(u.facing)}${box.left ? `, ${tenth(box.left)}″ of moves left` : ''}${this.commandNote(u, box)}`];
    return s('g', { class: cls.join(' '), transform: `translate(${at[0]} ${at[1]}) rotate(${u.facing || 0})`, dataset: this.pieceData(ref, u.side) },
      s('title', { text: lines.join('\n') }),
      s('rect.hit', { x: -Math.max(w, 1.6) / 2, y: 0, width: Math.max(w, 1.6), height: Math.max(d, 1.6) }),
      s('rect.body', { x: -w / 2, y: 0, width: w, height: d }),
      s('line.front', { x1: -w / 2, y1: 0, x2: w / 2, y2: 0 }),
      this.hatched(u) ? s('rect.rout', { x: -w / 2, y: 0, width: w, height: d, fill: 'url(#hatch)' }) : null,
      s('text.lbl-cas', { x: 0, y: d / 2, 'text-anchor': 'middle', 'dominant-baseline': 'middle', transform: up, text: this.footprintText(u) }),
      this.unitLabel(u, mid, { parent: at, spin: u.facing || 0, r }),
    );
  }

}
