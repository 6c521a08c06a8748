// The landing page: make a game from a bundled scenario, an uploaded
// scenario file or an exported game, then show its join links once.
// Making and importing games needs the host link that orderly serve
// prints (/#host=TOKEN), unless the server is open: the page keeps the
// host token for the tab and sends it as the bearer.

import { h, fill } from './dom.js';
import { showCreated as showJoinLinks } from './created.js';
import { Api, ApiError, sentence } from './api.js';
import { showGames } from './games.js';

const HOST_KEY = 'orderly.host';

const $ = (id) => /** @type {any} */ (document.getElementById(id));

/**
 * Reads the host token from the host link (#host=TOKEN), keeps it for
 * this tab and drops it from the address bar; else the one kept before.
 * @returns {string}
 */
function readHostToken() {
  const frag = location.hash.replace(/^#/, '');
  if (frag) {
    history.replaceState(null, '', location.pathname + location.search);
    const token = new URLSearchParams(frag).get('host') || '';
    if (token) {
      try { sessionStorage.setItem(HOST_KEY, token); } catch { /* private mode: memory only */ }
      return token;
    }
  }
  try { return sessionStorage.getItem(HOST_KEY) || ''; } catch { return ''; }
}

/**
 * The page's state: the API client (with the host token, if any), whether
 * a game is being made, and whether this page may make games (null until
 * the server has said).
 * @type {{api: Api, busy: boolean, may: boolean|null, host: boolean}}
 */
const home = { api: new Api(readHostToken()), busy: false, may: null, host: false };

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
  let refused = false;
  try {
    showCreated(await make());
  } catch (err) {
    banner(sentence(err));
    // The host link may have changed (the server restarted): ask again.
    refused = err instanceof ApiError && (err.status === 401 || err.status === 403);
  } finally {
    home.busy = false;
    for (const b of document.querySelectorAll('button')) b.disabled = false;
    applyHost();
  }
  if (refused) checkHost();
}

/**
 * Asks the server whether this page may make games: it is open, or the
 * page has the host token. An answer that does not come leaves the
 * controls as they are (the server's refusal will say why).
 */
async function checkHost() {
  try {
    const r = await home.api.get('/api/host');
    home.may = !!(r && (r.open || r.host));
    home.host = !!(r && r.host);
  } catch {
    home.may = null;
  }
  applyHost();
}

/** Shows the controls that make games, or the sentence in their place. */
function applyHost() {
  const no = home.may === false;
  $('host-needed').hidden = !no;
  for (const id of ['create-options', 'create-forms', 'new-scenario']) $(id).hidden = no;
  for (const a of document.querySelectorAll('#scenarios a[data-edit]')) /** @type {HTMLElement} */ (a).hidden = no;
  for (const el of document.querySelectorAll('#create-options input, #create-options select, #create-forms input, #create-forms button, #scenarios button[data-scenario]')) {
    el.disabled = no || home.busy;
    if (el.matches('button[data-scenario]')) el.hidden = no;
  }
}

/**
 * The options of a new game, with the tables file chosen, if any.
 * @returns {Promise<any>}
 */
async function options() {
  /** @type {any} */
  const o = {};
  if ($('commanders').checked) o.commanders = true;
  const fog = $('fog').value;
  if (fog && fog !== 'off') o.fog = fog; // off is the server's default
  const dice = $('dice').value;
  if (dice && dice !== 'server') o.dice = dice; // server is the default; table or mixed: the page asks for the faces
  const title = $('title').value.trim();
  if (title) o.title = title;
  const tables = $('tables-file').files[0];
  if (tables) {
    o.tables = await readFile(tables);
    o['tables-file'] = tables.name;
  }
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
 * @param {any} made
 */
function showCreated(made) {
  showJoinLinks($('created'), made);
}

async function loadScenarios() {
  try {
    const list = await home.api.get('/api/scenarios');
    fill($('scenarios'), ...list.map((sc) => h(`li${sc.id === 'demo' ? '.featured' : ''}`, null,
      h('div.sc-text', null,
        h('div.sc-title', { text: sc.title }),
        h('div.muted.small', { text: `${sc.id} · ${sc.rules.toUpperCase()} rules · ${sc.sides.join(' vs ')}${sc.tables ? ' · example tables' : ''}` })),
      h('div.sc-actions', null,
        h('a.btn.edit', { href: `/edit#scenario=${encodeURIComponent(sc.id)}`, dataset: { edit: sc.id }, title: 'Open this scenario in the editor', text: 'Edit' }),
        h('button.btn.primary', { type: 'button', dataset: { scenario: sc.id }, text: 'New game', on: { click: () => create(async () => home.api.post('/api/games', { scenario: sc.id, ...(await options()) })) } })))));
    const rules = [...new Set(list.map((/** @type {any} */ sc) => sc.rules))].sort();
    fill($('new-rules'), ...rules.map((r) => h('option', { value: r, text: r.toUpperCase() })));
  } catch (err) {
    fill($('scenarios'), h('li.error', { text: sentence(err) }));
  }
  applyHost();
}

$('banner').querySelector('.banner-close').addEventListener('click', () => { $('banner').hidden = true; });
$('upload-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const file = $('scenario-file').files[0];
  if (!file) { banner('Choose a scenario file first.'); return; }
  // A scenario of a rule set whose tables are the player's plays on
  // its demo's example tables when no tables file is chosen, if ticked;
  // the server ignores it for a rule set with tables of its own.
  const examples = !$('tables-file').files[0] && $('example-tables').checked ? { 'example-tables': true } : {};
  create(async () => home.api.post('/api/games', { source: await readFile(file), file: file.name, ...(await options()), ...examples }));
});
$('new-scenario-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const rules = $('new-rules').value;
  if (rules) location.assign(`/edit#rules=${encodeURIComponent(rules)}`);
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
checkHost().then(() => { if (home.host) showGames(home.api, $('games')); });
