// The landing page: make a game from a bundled scenario, an uploaded
// scenario file or an exported game, then show its join links once.

import { h, fill } from './dom.js';
import { Api, ApiError, sentence } from './api.js';

const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** The page's state: the API client (no seat yet) and whether a game is being made. */
const home = { api: new Api(''), busy: false };

/**
 * Shows one sentence in the banner.
 * @param {string} msg
 */
function banner(msg) {
  const b = $('banner');
  b.querySelector('.banner-text').textContent = msg;
  b.hidden = false;
}

/**
 * Runs a creation, one at a time, and shows its links.
 * @param {() => Promise<any>} make
 */
async function create(make) {
  if (home.busy) return;
  home.busy = true;
  $('banner').hidden = true;
  for (const b of document.querySelectorAll('button')) if (!b.classList.contains('banner-close')) b.disabled = true;
  try {
    showCreated(await make());
  } catch (err) {
    banner(sentence(err));
  } finally {
    home.busy = false;
    for (const b of document.querySelectorAll('button')) b.disabled = false;
  }
}

function options() {
  /** @type {any} */
  const o = {};
  if ($('commanders').checked) o.commanders = true;
  const title = $('title').value.trim();
  if (title) o.title = title;
  return o;
}

/**
 * Reads a chosen file as text.
 * @param {File} file
 * @returns {Promise<string>}
 */
function readFile(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new ApiError(0, 'file', `The file ${file.name} could not be read.`));
    r.readAsText(file);
  });
}

/**
 * Shows a new game's join links (the only time they are shown).
 * @param {{game:any, seats:{role:string, side?:string, formation?:string, label:string, token:string}[]}} made
 */
function showCreated(made) {
  const g = made.game;
  $('created-title').textContent = g.title;
  $('created-id').textContent = g.id;
  $('created-commitment').textContent = (g.seeds && g.seeds[0] && g.seeds[0].commitment) || '';
  const sides = new Map((g.sides || []).map((sd) => [sd.id, sd]));
  fill($('links'), ...made.seats.map((seat) => {
    const url = `${location.origin}/play#${seat.token}`;
    const what = seat.role === 'umpire' ? 'umpire: sees everything' : seat.role === 'commander' ? `commander of ${seat.formation}` : `${sides.get(seat.side)?.nation || seat.side} side`;
    const copy = h('button.btn.small', { type: 'button', text: 'Copy' });
    copy.addEventListener('click', () => copyText(url, copy));
    return h('li', { dataset: { role: seat.role, side: seat.side || undefined } },
      h('span.who', null, seat.label, h('small', { text: what })),
      h('a.join', { href: url, target: '_blank', rel: 'noopener', dataset: { role: seat.role, side: seat.side || '' }, text: url }),
      copy);
  }));
  $('created').hidden = false;
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  $('created').scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
}

/**
 * Copies text to the clipboard, with a fallback for pages served over
 * plain http on a LAN (no Clipboard API there).
 * @param {string} text @param {HTMLButtonElement} btn
 */
async function copyText(text, btn) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const ta = h('textarea', { readonly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
  }
  btn.textContent = ok ? 'Copied ✓' : 'Select and copy';
  setTimeout(() => { btn.textContent = 'Copy'; }, 2500);
}

async function loadScenarios() {
  try {
    const list = await home.api.get('/api/scenarios');
    fill($('scenarios'), ...list.map((sc) => h(`li${sc.id === 'demo' ? '.featured' : ''}`, null,
      h('div.sc-text', null,
        h('div.sc-title', { text: sc.title }),
        h('div.muted.small', { text: `${sc.id} · ${sc.rules.toUpperCase()} rules · ${sc.sides.join(' vs ')}` })),
      h('button.btn.primary', { type: 'button', dataset: { scenario: sc.id }, text: 'New game', on: { click: () => create(() => home.api.post('/api/games', { scenario: sc.id, ...options() })) } }))));
  } catch (err) {
    fill($('scenarios'), h('li.error', { text: sentence(err) }));
  }
}

$('banner').querySelector('.banner-close').addEventListener('click', () => { $('banner').hidden = true; });
$('upload-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const file = $('scenario-file').files[0];
  if (!file) { banner('Choose a scenario file first.'); return; }
  create(async () => home.api.post('/api/games', { source: await readFile(file), file: file.name, ...options() }));
});
$('import-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const file = $('import-file').files[0];
  if (!file) { banner('Choose an exported game (JSON) first.'); return; }
  create(async () => {
    const text = await readFile(file);
    return home.api.post(`/api/games/import${$('commanders').checked ? '?commanders=true' : ''}`, text);
  });
});
loadScenarios();
