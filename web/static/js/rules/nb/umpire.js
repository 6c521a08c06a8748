// NB's part of the umpire's card (NB-15): a general's removal, killed or
// captured, and the replacement of a fallen one by a new general with his
// quality, command range in inches and place. The server offers remove
// and replace for a general (the board's offers), and its board's extra
// gives the fates remove takes and the qualities a replacement may have;
// the card offers those and nothing else. The shared umpire's hand
// (umpire.js) calls umpireCard for the selected piece.

import { h } from '../../dom.js';

/**
 * What the umpire may do with an NB general beside Place…: remove him
 * (with his fate) while he stands, replace him once he has fallen. A
 * fallen general is not placed.
 * @param {any} piece the selected unit or general
 * @param {any} u the card's context (umpire.js, cardContext)
 * @returns {{acts?:HTMLElement[], below?:HTMLElement[], place?:boolean}}
 */
export function umpireCard(piece, u) {
  const x = u.board.extra || {};
  const acts = [];
  const label = u.name(piece.id);
  if (u.offered.includes('remove')) {
    const fate = h('select', { 'aria-label': 'Fate', dataset: { fate: piece.id } }, ...(x.fates || []).map((f) => h('option', { value: f, text: f })));
    acts.push(fate, h('button.btn.small.danger', {
      type: 'button', dataset: { remove: piece.id }, text: 'Remove (casualty)', title: 'The general falls; his formation waits for a replacement (NB-15)',
      on: { click: () => u.act({ remove: { general: piece.id, fate: fate.value } }, `${label} is ${fate.value}.`) },
    }));
  }
  const replace = u.offered.includes('replace');
  if (replace) {
    acts.push(h('button.btn.small', {
      type: 'button', dataset: { replace: piece.id }, text: 'Replace…', 'aria-expanded': String(u.open), title: 'A new general takes his place (NB-15)',
      on: { click: () => u.toggle() },
    }));
  }
  return { acts, below: replace && u.open ? [replaceForm(piece, x.qualities || [], u)] : [], place: !piece.fate };
}

/**
 * The form of a fallen general's replacement: the new general's id,
 * name, quality (those the board gives), command range in inches and
 * where he stands (the fallen one's place, or a tap on the map).
 * @param {any} g the fallen general
 * @param {string[]} qualities
 * @param {any} u the card's context
 * @returns {HTMLElement}
 */
function replaceForm(g, qualities, u) {
  const d = u.draft(() => ({
    id: `${g.id}-2`, name: '', quality: qualities.includes(g.quality) ? g.quality : qualities[0] || '',
    range: String(g.range ?? ''),
    x: Array.isArray(g.at) ? String(g.at[0]) : '', y: Array.isArray(g.at) ? String(g.at[1]) : '',
  }));
  const keep = (key) => (ev) => { d[key] = ev.target.value; };
  const id = h('input', { type: 'text', maxlength: 60, value: d.id, dataset: { field: 'id' }, 'aria-label': 'New general id', on: { input: keep('id') } });
  const nm = h('input', { type: 'text', maxlength: 80, value: d.name, placeholder: 'optional', dataset: { field: 'name' }, 'aria-label': 'New general name', on: { input: keep('name') } });
  const q = h('select', { dataset: { field: 'quality' }, 'aria-label': 'Quality', on: { change: keep('quality') } },
    ...qualities.map((v) => h('option', { value: v, text: v, selected: v === d.quality })));
  const rg = h('input', { type: 'number', min: 0, step: 0.5, inputmode: 'decimal', value: d.range, dataset: { field: 'range' }, 'aria-label': 'Command range in inches', on: { input: keep('range') } });
  const x = h('input', { type: 'number', step: 0.5, inputmode: 'decimal', value: d.x, dataset: { field: 'x' }, 'aria-label': 'x', on: { input: keep('x') } });
  const y = h('input', { type: 'number', step: 0.5, inputmode: 'decimal', value: d.y, dataset: { field: 'y' }, 'aria-label': 'y', on: { input: keep('y') } });
  const tap = () => u.pick('Tap the map where the new general stands.', (to) => {
    if (Array.isArray(to)) { d.x = String(to[0]); d.y = String(to[1]); }
    u.banner('');
    u.select({ kind: 'general', id: g.id });
  });
  return h('form.replace-form', { dataset: { replacing: g.id }, on: { submit: async (ev) => {
    ev.preventDefault();
    if (d.x === '' || d.y === '') { tap(); return; }
    /** @type {any} */
    const by = { id: d.id.trim(), quality: d.quality, range: Number(d.range), at: [Number(d.x), Number(d.y)] };
    if (d.name.trim()) by.name = d.name.trim();
    if (await u.act({ replace: { general: g.id, by } }, `${by.name || by.id} takes the place of ${u.name(g.id)}.`)) {
      u.forget();
      u.close();
      u.select({ kind: 'general', id: by.id });
    }
  } } },
  h('label', { text: 'New id' }), id,
  h('label', { text: 'Name' }), nm,
  h('label', { text: 'Quality' }), q,
  h('label', { text: 'Range ″' }), rg,
  h('label', { text: 'At' }), h('div.xy', null, x, y, h('button.btn.small', { type: 'button', text: 'Tap the map', on: { click: tap } })),
  h('button.btn.primary.small.wide', { type: 'submit', dataset: { replaceSend: g.id }, text: `Replace ${u.name(g.id)}` }));
}
