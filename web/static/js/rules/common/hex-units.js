// What the hex rule sets share on the page: a unit is in good order when
// formed, its formation is shortened on its counter, and a leader's
// counter carries the letter of the formation he commands, his name
// showing from a closer zoom the smaller that formation is. Each such
// rule set's map view is HexUnitsView or extends it.

import { HexMapView } from '../../hexmap.js';

/** The letter on a leader's counter, by the formation he commands. */
const ROLE = { army: 'A', corps: 'C', division: 'D', brigade: 'B' };

/** The closest zoom at which a leader's name shows, by role (army and corps: always). */
const LEADER_ZOOM = { division: 'mid', brigade: 'near' };

/** Short words for formations on a counter. */
const SHAPE_ABBR = { line: 'ln', column: 'col', 'road-column': 'rd', 'general-order': 'GO', skirmish: 'sk' };

export class HexUnitsView extends HexMapView {
  /** Disordered or worse: any status but formed. */
  unitDisorder(u) { return u.status !== 'formed' ? u.status : ''; }

  shapeWord(u) { return SHAPE_ABBR[u.formation] || u.formation; }

  leaderLetter(l) { return ROLE[l.role] || '?'; }

  leaderZoom(l) { return LEADER_ZOOM[l.role] || 'far'; }

  leaderKey() { return 'leader (A army, C corps, D division, B brigade)'; }
}
