// The arms of the rule sets whose units are infantry, light or heavy
// cavalry or artillery (NB, CD), as the order of battle shortens them.

/** Short words for a unit's arm in a division's list of units. */
const ARM = { infantry: 'inf', 'light-cavalry': 'lt cav', 'heavy-cavalry': 'hv cav', artillery: 'art' };

/**
 * A unit's arm in few letters, or its type as the board gives it.
 * @param {{type:string}} u
 */
export function armWord(u) { return ARM[u.type] || u.type; }
