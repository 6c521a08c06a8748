// What the rule sets whose units stand on footprints grouped in brigades
// share on the page: a general commands a brigade (or the army) and is
// rated by his staff; units group within their brigade as the board
// finds them. Each such rule set's map view extends BrigadeView with the
// marks of its own units.

import { FootprintView } from '../../footprint.js';

export class BrigadeView extends FootprintView {
  /** A brigade's commander, or the army's (he commands no brigade). */
  generalKind(g, kindOf) { return kindOf[g.commands || g.brigade || g.side] || (g.brigade ? 'division' : 'army'); }

  /** A brigade game has few generals: every one's name shows at every zoom. */
  generalZoom(kind) { return 'far'; }

  generalTitle(g, kind) {
    if (!g.staff) return super.generalTitle(g, kind);
    return `${g.name || g.id} — ${g.brigade ? `commands ${this.model.name(g.brigade)}` : 'army commander'}\nstaff rating ${g.staff}${g.trait ? ` (${g.trait})` : ''} · ${g.side}`;
  }

  /** A unit disordered, shaken (CD) or in combat is marked so on its footprint. */
  unitClasses(u) {
    const out = [];
    if (u.disordered) out.push('st-disordered');
    if (u.shaken) out.push('st-shaken');
    if ((u.engaged || []).length) out.push('st-engaged');
    return out;
  }

  /** A disordered unit's footprint is hatched. */
  hatched(u) { return !!u.disordered; }

  stateNote(u) { return `${u.disordered ? ', disordered' : ''}${u.shaken ? ', shaken' : ''}${(u.engaged || []).length ? ', in combat' : ''}`; }

  /** The brigade group of u, as the board's extra lists its brigade's groups. */
  groupOf(x, u) { return ((x.groups || {})[u.brigade] || []).find((g) => g.includes(u.id)) || []; }
}

/**
 * What a general commands, for the printed sheet: his brigade's name, or
 * the army.
 * @param {any} g @param {(id:string)=>string} name
 */
export function brigadeRole(g, name) {
  return g.brigade ? name(g.brigade) : 'army';
}
