// A new game's join links, shown once: shared by the front page and the
// scenario editor, which both make games.

import { h, fill, copyText } from './dom.js';

/**
 * Fills the section of a new game (the markup of index.html's #created:
 * .created-title, .created-id, .created-commitment and ul.links) with its
 * title, id, dice commitment and one join link a seat, each with a Copy
 * button, and shows it.
 * @param {HTMLElement} section
 * @param {{game:any, seats:{role:string, side?:string, formation?:string, label:string, token:string}[]}} made
 */
export function showCreated(section, made) {
  const g = made.game;
  const q = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (section.querySelector(sel));
  q('.created-title').textContent = g.title;
  q('.created-id').textContent = g.id;
  q('.created-commitment').textContent = (g.seeds && g.seeds[0] && g.seeds[0].commitment) || '';
  const sides = new Map((g.sides || []).map((/** @type {any} */ sd) => [sd.id, sd]));
  fill(q('ul.links'), ...made.seats.map((seat) => {
    const url = `${location.origin}/play#${seat.token}`;
    const what = seat.role === 'umpire' ? 'umpire: sees everything' : seat.role === 'commander' ? `commander of ${seat.formation}` : `${sides.get(seat.side)?.nation || seat.side} side`;
    const copy = h('button.btn.small', { type: 'button', text: 'Copy' });
    copy.addEventListener('click', () => copyText(url, copy));
    return h('li', { dataset: { role: seat.role, side: seat.side || undefined } },
      h('span.who', null, seat.label, h('small', { text: what })),
      h('a.join', { href: url, target: '_blank', rel: 'noopener', dataset: { role: seat.role, side: seat.side || '' }, text: url }),
      copy);
  }));
  section.hidden = false;
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
}
