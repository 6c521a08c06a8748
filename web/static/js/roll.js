// The parts of a roll as the log recorded it, for a detailed line: the
// dice, each modifier, the total and the result, shown as they are.

/**
 * The parts of a roll for a detailed line: natural roll (with its faces
 * when there are several), each modifier, total and result.
 * @param {any} r a Roll of the log
 * @returns {{label:string, value:string}[]}
 */
export function rollParts(r) {
  // Dice thrown at the table (table or mixed dice) say so.
  const out = [{ label: r.from === 'table' ? `${r.dice} at the table` : r.dice, value: r.faces && r.faces.length > 1 ? `${r.faces.join(' + ')} = ${r.natural}` : String(r.natural) }];
  for (const m of r.mods || []) {
    out.push({ label: `${m.name} ${m.value}`, value: `${m.amount >= 0 ? '+' : ''}${m.amount}` });
  }
  out.push({ label: 'total', value: String(r.total) });
  out.push({ label: 'result', value: r.result });
  return out;
}
