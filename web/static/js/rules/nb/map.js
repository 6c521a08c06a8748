// NB's table map: the shared map (map.js) with NB's pieces and rules.
// A unit's block is sized by its formation; a general shows whether he
// is attached (NB-13) or has fallen (NB-15), and his quality and range;
// an off-board reserve is marked where it will come on (NB-10). An
// attached general goes with what he is attached to until he detaches
// (NB-13), and a fallen one stands where he fell until the umpire
// replaces him (NB-15): neither may be dragged.

import { s, num } from '../../dom.js';
import { MapView } from '../../map.js';

/** Width and depth of a unit's block by formation, inches (front first). */
const SHAPES = {
  column: [0.9, 1.4],
  'march-column': [0.55, 2.0],
  line: [1.8, 0.6],
  square: [1.0, 1.0],
  skirmish: [1.8, 0.45],
  limbered: [0.8, 1.3],
  unlimbered: [1.3, 0.7],
};

/** Where a general attached to a unit is drawn, off its middle, inches: beside it, so the unit stays in reach of a finger. */
const ATTACHED_OFFSET = [0.9, -0.9];

export class NbMapView extends MapView {
  /** @param {import('../../map.js').Ref} ref */
  movable(ref) {
    if (!super.movable(ref)) return false;
    const p = this.pieceOf(ref);
    return !(ref.kind === 'general' && (p.attached || p.fate));
  }

  unitSize(u) { return SHAPES[u.formation] || SHAPES.column; }

  /** A unit's status (formed, disordered, routed) marks its block. */
  unitClasses(u) { return [`st-${u.status}`]; }

  /** A routed unit's block is hatched. */
  hatched(u) { return u.status === 'routed'; }

  unitState(u) { return u.status; }

  /** A detachment, and a unit that started combat this turn (it needs no command range, NB-12). */
  unitNotes(u) {
    const out = [];
    if (u.detachment) out.push('detachment');
    if (u.combat) out.push('started combat this turn');
    return out;
  }

  /** A general replaced by the umpire leaves the table (NB-15). */
  generalShown(g) { return super.generalShown(g) && !g.replaced; }

  /** A fallen general commands nothing: no range is drawn (NB-15). */
  commanding(g) { return !g.fate; }

  generalMarks(g) {
    const classes = [];
    if (g.fate) classes.push('fallen');
    if (g.attached) classes.push('attached');
    return g.attached ? { classes, offset: ATTACHED_OFFSET } : { classes };
  }

  generalTitle(g, kind) {
    const m = this.model;
    const f = m.name(g.commands);
    const lines = [`${g.name || g.id} — ${kind === 'army' ? 'army commander' : `commands ${f !== g.commands ? `${f} (${g.commands})` : g.commands}`}`];
    lines.push(`${g.quality || '?'}, command range ${num(g.range)}″ · ${g.side}`);
    if (g.attached) lines.push(`attached to ${m.name(g.attached)}`);
    if (g.fate) lines.push(g.fate);
    return lines.join('\n');
  }

  /** The seat's off-board reserves, each where it will come on (NB-10). */
  tableMarks() {
    const { field: f, state, colour } = this.model;
    const out = [];
    for (const fm of state.formations || []) {
      if (fm.reserve !== 'off-board' || !fm.square || !f.columns) continue;
      const at = edgeMid(f, fm.square, fm.edge);
      if (!at) continue;
      const g = s(`g.entry.c-${colour(fm.side)}`, { dataset: { formation: fm.id } },
        s('title', { text: `${this.model.name(fm.id)} (${fm.id}): off-board reserve, enters at ${fm.square} on the ${fm.edge} edge` }),
        s('circle', { cx: at[0], cy: at[1], r: 1.2 }));
      // on the table's side of the entry, as the screen shows it
      const n = { north: [0, 1], south: [0, -1], east: [-1, 0], west: [1, 0] }[fm.edge] || [0, 0];
      const a = this.turn.at(at[0], at[1]), b = this.turn.at(at[0] + n[0], at[1] + n[1]);
      const dx = b.x - a.x, dy = b.y - a.y;
      const into = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'r' : 'l') : (dy > 0 ? 'b' : 't');
      g.append(this.mark('text.lbl', `${fm.id} enters ${fm.square}`, at, { r: 1.2, slots: [into, 'r', 'l', 't', 'b'], prio: 1 }));
      out.push(g);
    }
    return out;
  }
}

/** The middle of a grid square's side on an edge. */
function edgeMid(f, square, edge) {
  const col = square.charCodeAt(0) - 65;
  const row = parseInt(square.slice(1), 10) - 1;
  if (!(col >= 0) || !(row >= 0)) return null;
  const cw = f.width / f.columns, rh = f.depth / f.rows;
  const mx = (col + 0.5) * cw, my = (row + 0.5) * rh;
  switch (edge) {
    case 'north': return [mx, 0];
    case 'south': return [mx, f.depth];
    case 'west': return [0, my];
    case 'east': return [f.width, my];
  }
  return [mx, my];
}
