// One line of English per event, mirroring game/text.go (Event.Describe),
// with generals shown by name; and the parts of a recorded roll.

import { num, pt } from './dom.js';

/**
 * An order as the engine prints it: kind, objective and quoted note.
 * @param {{kind:string, objective?:number[], note?:string}|null|undefined} o
 * @returns {string}
 */
export function orderText(o) {
  if (!o) return '';
  let t = o.kind;
  if (o.objective) t += ' ' + pt(o.objective);
  if (o.note) t += ` "${o.note}"`;
  return t;
}

/**
 * A roll in one line, as Roll.String in game/event.go.
 * @param {{dice:string, natural:number, mods?:{name:string,value:string,amount:number}[], total:number, result:string}|null|undefined} r
 * @returns {string}
 */
export function rollText(r) {
  if (!r) return '?';
  let t = `${r.dice} rolled ${r.natural}`;
  for (const m of r.mods || []) {
    if (m.amount !== 0) t += ` ${m.amount > 0 ? '+' : ''}${m.amount} ${m.value}`;
  }
  return t + ` = ${r.total}: ${r.result}`;
}

/**
 * Describes an event in a line, for people.
 * @param {any} e an event of the log
 * @param {(id:string)=>string} [name] shows a general's id as his name
 * @returns {string}
 */
export function describe(e, name = (id) => id) {
  const g = (id) => (id ? name(id) : id);
  const list = (xs) => (xs || []).join(', ');
  let t = '';
  switch (e.type) {
    case 'step-begun':
      t = `${e.step} step`;
      break;
    case 'side-ready':
      t = `${e.side} is ready to end the ${e.step} step`;
      break;
    case 'game-over':
      t = `game over: ${e.text || ''}`;
      break;
    case 'order-written': {
      const o = e.order || {};
      if (e.how === 'initial') t = `${o.id}: ${orderText(o)} for ${list(o.for)} before the game`;
      else if (e.how === 'entry') t = `${o.id}: ${orderText(o)} for ${list(o.for)}, given to ${g(e.to)} at the table edge`;
      else t = `${o.id}: ${orderText(o)} for ${list(o.for)}, by ${g(e.general)}, carried by ${e.messenger} to ${g(e.to)}`;
      break;
    }
    case 'messenger-sent':
      t = `${e.messenger} leaves ${pt(e.at)}, riding ${num(e.range)}" a turn`;
      break;
    case 'messenger-moved':
      t = `${e.messenger} rides ${pt(e.from)} -> ${pt(e.at)}`;
      if (e.arrived) t += ', arrived';
      break;
    case 'messenger-held':
    case 'order-waiting':
    case 'entry-blocked':
      t = e.text || '';
      break;
    case 'messenger-redirected':
      t = `${e.messenger} now rides to ${g(e.to)} instead of ${g(e.general)}`;
      break;
    case 'messenger-withdrawn':
      t = `${e.messenger} is recalled`;
      break;
    case 'order-delivered':
      t = `${e['order-id']} delivered to ${g(e.general)}, for ${list(e.readers)}`;
      break;
    case 'order-read':
      t = `${g(e.general)} reads ${e['order-id']} for ${e.formation}: ${rollText(e.roll)}; acts on turn ${e.acts}`;
      break;
    case 'order-not-read':
      t = `${e['order-id']} is not read for ${e.formation}: ${e.text || ''}`;
      break;
    case 'order-active': {
      const o = e.order || {};
      if (e.how === 'for-entry') {
        t = `${e.formation} will act on ${o.id} (${orderText(o)}) once it enters`;
        break;
      }
      t = `${e.formation} acts on ${o.id} (${orderText(o)})`;
      if (e.divisions && e.divisions.length) t += `, with ${list(e.divisions)}`;
      if (e['left-out'] && e['left-out'].length) t += `; keeping their own orders (out of range or without a general): ${list(e['left-out'])}`;
      if (e.how) t += ` [${e.how}]`;
      break;
    }
    case 'order-superseded':
      t = `${e['order-id']} is not acted on by ${e.formation}: ${e.text || ''}`;
      break;
    case 'order-complete':
      t = `${e.formation} completed its order; now ${orderText(e.order)}`;
      break;
    case 'engaged':
      t = `${e.formation} is engaged with ${list(e.with)}`;
      break;
    case 'disengaged':
      t = `${e.formation} is no longer engaged`;
      break;
    case 'reserve-scheduled':
      t = `${e.formation} will enter at ${e.square} (${e.edge} edge) from turn ${e.entry}: ${rollText(e.roll)}`;
      break;
    case 'general-placed':
      t = `${g(e.general)} of ${e.formation} placed at ${pt(e.at)} on the ${e.edge} edge`;
      break;
    case 'reserve-arrival-roll':
      t = `${e.formation} arrival: ${rollText(e.roll)}; enters on turn ${e.arrival}`;
      break;
    case 'reserve-entered':
      t = `${e.formation} enters at ${pt(e.at)} with ${(e.moves || []).length} pieces`;
      if (e.text) t += `; ${e.text}`;
      break;
    case 'moved':
      t = (e.moves || []).map((m) => {
        let one = `${m.unit || g(m.general)} ${pt(m.from)} -> ${pt(m.to)}`;
        if (m.formation) one += ` in ${m.formation}`;
        return one;
      }).join('; ');
      break;
    case 'status-changed':
      t = `${e.unit} is ${e.status}`;
      break;
    case 'attached':
      t = `${g(e.general)} attaches to ${g(e.to)}`;
      break;
    case 'detached':
      t = `${g(e.general)} detaches from ${g(e.to)}`;
      break;
    case 'general-removed':
      t = `${g(e.general)} is ${e.status}`;
      break;
    case 'general-replaced': {
      const n = e.new || {};
      t = `${g(n.id)} replaces ${g(e.general)} in command of ${e.formation} (${n.quality}, ${num(n.range)}")`;
      break;
    }
    case 'combat-declared':
      t = `${list(e.units)} start combat`;
      break;
    case 'reacted':
      t = `${list(e.units)} react`;
      break;
    case 'command-range-violation':
      t = `${e.unit} is ${num(e.distance)}" from ${g(e.general)}, beyond his ${num(e.range)}" range`;
      break;
    case 'order-restriction': {
      const units = list(e.units);
      if (e.status === 'in-line') {
        t = `${units} ${(e.units || []).length === 1 ? 'is' : 'are'} in line; under an attack order units keep to column until engaged`;
      } else if (e.status === 'short-move') {
        t = `${units} moved less than ${num(e.distance)}"; under an attack order the division moves at least half its slowest unit's speed`;
      } else {
        t = `${units}: ${e.text || ''}`;
      }
      break;
    }
    case 'command-rejected': // only in a script's timeline, never in a game's log
      t = e.text || '';
      if (e.command) t += ` [${e.command.verb}]`;
      break;
    default:
      t = e.text || e.type;
  }
  if (e.rule) t += ` (${e.rule})`;
  return t;
}

/**
 * The parts of a roll for a detailed line: natural roll, each modifier,
 * total and result.
 * @param {any} r a Roll
 * @returns {{label:string, value:string}[]}
 */
export function rollParts(r) {
  const out = [{ label: r.dice, value: r.faces && r.faces.length > 1 ? `${r.faces.join(' + ')} = ${r.natural}` : String(r.natural) }];
  for (const m of r.mods || []) {
    out.push({ label: `${m.name} ${m.value}`, value: `${m.amount >= 0 ? '+' : ''}${m.amount}` });
  }
  out.push({ label: 'total', value: String(r.total) });
  out.push({ label: 'result', value: r.result });
  return out;
}
