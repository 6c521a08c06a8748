// The page module of each rule set, by the rules id its board names: the
// one place the page lists rule sets. Adding a rule set is a module
// beside these and one line here.
//
// A module exports one object, a RulesModule:
//   hex      whether the game is played on a hex map (the hex map's views
//            and a command panel) or on a table;
//   MapView  the class that draws the map (map.js, footprint.js,
//            hexmap.js, or the rule set's own);
//   Panel    the command panel shown in the Command tab, or none: then the
//            seat writes orders in the Orders tab with the form orders()
//            makes;
//   orders   (opts) => an order form, for a rule set without a Panel;
//   oob      (el, ctx) draws the order of battle into el;
//   sheet    (el, ctx) draws the printed order sheet into el;
//   cards    the card of a selected unit, general or messenger on a
//            table: {unit, general, messenger}, each (piece, ctx) =>
//            element or null.
// ctx is the page's view of the board (app.js, context()): the board,
// the seat, the names, the offers and the act() that sends a command.

import nb from './nb.js';
import bp from './bp.js';
import nes from './nes.js';
import cd from './cd.js';
import lob from './lob.js';

/** @type {Object<string, any>} */
const modules = { nb, bp, nes, cd, lob };

/**
 * The module of the rule set with this id, or null for one the page does
 * not know.
 * @param {string} id
 */
export function rulesModule(id) {
  return Object.hasOwn(modules, id) ? modules[id] : null;
}
