// The replay page (/replay?game=ID#turn=3 or #seq=120): one seat steps
// through a game as it saw it, event by event and turn by turn. Every
// board comes from the server, rebuilt from the log at that event; the map
// is the rule set's own MapView, drawn read-only, and the log shows the
// seat's events up to the one replayed.

import { h, fill } from './dom.js';
import { Api, ApiError, sentence } from './api.js';
import { EventLog } from './log.js';

const TOKEN_KEY = 'orderly.seat';
const RULES_ID = /^[a-z][a-z0-9-]{0,31}$/;

const $ = (id) => /** @type {any} */ (document.getElementById(id));

/** The page's one state object. */
const rp = {
  /** @type {Api|null} */ api: null,
  /** @type {any} */ info: null,
  /** @type {any} */ rules: null,
  /** @type {any} */ map: null,
  /** @type {any} */ board: null,
  /** The index of the view replayed: its events and turns. @type {any} */ index: null,
  /** The positions the slider steps through: 0, then each event's number. @type {number[]} */ stops: [0],
  /** The events of the index by number. @type {Map<number, any>} */ events: new Map(),
  at: 0,
  full: false,
  playing: false,
  timer: 0,
  /** The number of the board asked for last: an older answer is dropped. */
  wanted: -1,
  /** @type {EventLog|null} */ log: null,
  shown: 0,
  /** @type {Object<string,string>} */ palette: {},
  /** @type {{kind:string,id:string}|null} */ selected: null,
  backdrop: /** @type {{url:string, href:string}|null} */ (null),
};

/**
 * Reads the seat's token as the play page keeps it, and the deep link:
 * the fragment is either a join link's token (kept for this tab and taken
 * out of the address bar) or the place to open at (turn=3, seq=120,
 * view=full).
 * @returns {{token:string, link:URLSearchParams}}
 */
function readLink() {
  const hash = location.hash.replace(/^#/, '');
  let link = new URLSearchParams();
  if (hash && !hash.includes('=')) {
    try { sessionStorage.setItem(TOKEN_KEY, hash); } catch { /* private mode: memory only */ }
    history.replaceState(null, '', location.pathname + location.search);
    return { token: hash, link };
  }
  link = new URLSearchParams(hash);
  let token = '';
  try { token = sessionStorage.getItem(TOKEN_KEY) || ''; } catch { /* none kept */ }
  return { token, link };
}

/** @param {string} msg */
function banner(msg) {
  const b = $('banner');
  b.hidden = !msg;
  b.querySelector('.banner-text').textContent = msg;
}

/**
 * The module of the rule set with this id, as the play page finds it.
 * @param {string} id
 */
async function rulesModule(id) {
  if (typeof id !== 'string' || !RULES_ID.test(id)) return null;
  try {
    const mod = await import(`./rules/${id}.js`);
    return mod.default || null;
  } catch {
    return null;
  }
}

/** The colour class of each side, as the play page gives them. */
function makePalette(sides) {
  const out = {};
  const free = ['blue', 'red', 'green', 'grey'];
  const take = (c) => { free.splice(free.indexOf(c), 1); return c; };
  for (const sd of sides) if (sd.nation === 'french' && free.includes('blue')) out[sd.id] = take('blue');
  for (const sd of sides) if (!out[sd.id] && /british|english/.test(sd.nation) && free.includes('red')) out[sd.id] = take('red');
  for (const sd of sides) if (!out[sd.id]) out[sd.id] = free.length ? take(free[0]) : 'grey';
  return out;
}

/** @param {string} side */
function colour(side) { return rp.palette[side] || 'grey'; }

/** @param {string} id */
function sideName(id) {
  const sd = ((rp.info && rp.info.sides) || []).find((x) => x.id === id);
  return sd ? sd.name : id;
}

/** @param {string} id a piece's id: its name as the board gives it */
function nameOf(id) {
  const b = rp.board;
  if (!id || !b) return id || '';
  if (b.names && b.names[id]) return b.names[id];
  const g = (b.state.generals || b.state.leaders || []).find((x) => x.id === id);
  return g && g.name ? g.name : id;
}

/**
 * The map pane is the play page's own: its SVG (with its patterns and
 * layers), tools, scale, compass and key are read from /play, so that the
 * replay draws with exactly what the game does.
 */
async function mountMap() {
  const res = await fetch('/play', { credentials: 'omit' });
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  const pane = doc.querySelector('.map-pane');
  if (!pane) throw new Error('no map pane');
  for (const drop of pane.querySelectorAll('.sides-views, #map-hint, [data-map="ranges"], [data-map="reach"]')) drop.remove();
  fill($('map-pane'), ...[...pane.childNodes].map((n) => document.importNode(n, true)));
}

/** The index of the view replayed, every page of it. */
async function loadIndex() {
  const view = rp.full ? '&view=full' : '';
  let since = 0;
  let index = null;
  const events = [];
  for (;;) {
    const page = await rp.api.get(rp.api.path(`/replay?since=${since}${view}`));
    if (!index) index = page;
    events.push(...page.events);
    if (!page.more || !page.events.length) break;
    since = page.events[page.events.length - 1].seq;
  }
  index.events = events;
  rp.index = index;
  rp.events = new Map(events.map((e) => [e.seq, e]));
  rp.stops = [0, ...events.map((e) => e.seq)];
  const slider = $('slider');
  slider.max = String(rp.stops.length - 1);
  $('full-view').hidden = !index.full || rp.info.seat.role === 'umpire';
  $('full-view').setAttribute('aria-pressed', String(rp.full));
  rp.log = new EventLog($('log'), h('span'));
  rp.log.setVisible(true);
  fill($('log'));
  rp.shown = 0;
}

/** The slider's stop at or before event number seq. @param {number} seq */
function stopOf(seq) {
  let i = 0;
  while (i + 1 < rp.stops.length && rp.stops[i + 1] <= seq) i++;
  return i;
}

/** The first event of turn t in the view, or -1. @param {number} t */
function turnStart(t) {
  const ts = (rp.index.turns || []).find((x) => x.turn === t);
  return ts ? ts.seq : -1;
}

/** The turn of the position at event number seq. @param {number} seq */
function turnAt(seq) {
  let t = 0;
  for (const ts of rp.index.turns || []) if (ts.seq <= seq) t = ts.turn;
  return t;
}

/**
 * Goes to event number seq: asks for the board there (the latest ask
 * wins), draws it, and brings the log and the address up to it.
 * @param {number} seq
 */
async function go(seq) {
  const last = rp.stops[rp.stops.length - 1];
  seq = rp.stops[stopOf(Math.max(0, Math.min(seq, last)))];
  rp.wanted = seq;
  let board;
  try {
    board = await rp.api.get(rp.api.path(`/replay/${seq}${rp.full ? '?view=full' : ''}`));
  } catch (err) {
    if (rp.wanted === seq) { pause(); banner(sentence(err)); }
    return;
  }
  if (rp.wanted !== seq) return;
  banner('');
  rp.at = seq;
  rp.board = board;
  draw();
  const link = new URLSearchParams({ seq: String(seq) });
  if (rp.full) link.set('view', 'full');
  history.replaceState(null, '', `${location.pathname}${location.search}#${link}`);
  if (rp.playing) rp.timer = window.setTimeout(() => step(1), Number($('speed').value));
}

/** Draws the board replayed, the heading and the log up to it. */
function draw() {
  const b = rp.board;
  const info = b.game;
  $('turn').textContent = String(info.turn);
  $('turns').textContent = String(info.turns);
  $('phase-step').textContent = info.over ? 'Game over'
    : info.turn === 0 ? 'before the game' : `${info.phase} phase · ${info.step} step`;
  const at = stopOf(rp.at);
  $('slider').value = String(at);
  const ev = rp.events.get(rp.at);
  $('position').textContent = rp.at === 0 ? `the start, before any event · ${rp.stops.length - 1} events`
    : `event ${at} of ${rp.stops.length - 1}${ev ? ` · #${ev.seq}` : ''}`;
  document.title = `Replay · turn ${info.turn} · ${info.title} — orderly`;
  const last = rp.stops.length - 1;
  for (const [what, off] of [['first', at === 0], ['turn-back', at === 0], ['back', at === 0], ['forward', at === last], ['turn-forward', at === last], ['last', at === last]]) {
    document.querySelector(`[data-vcr="${what}"]`).disabled = off;
  }
  drawMap();
  drawLog();
}

function drawMap() {
  const b = rp.board;
  const image = (b.space || {}).image;
  if (image && (!rp.backdrop || rp.backdrop.url !== image.url)) {
    const bd = rp.backdrop = { url: image.url, href: '' };
    rp.api.blobURL(image.url).then((href) => { bd.href = href; if (rp.backdrop === bd) drawMap(); }).catch(() => {});
  }
  const backdrop = image && rp.backdrop ? rp.backdrop.href : '';
  const seat = b.game.seat;
  const edge = (b.space || {}).edge;
  $('map').setAttribute('aria-label', `${rp.rules.hex ? 'The hex map' : 'The table, in inches'} at event ${rp.at}; ${edge ? `your base edge (${edge}) is at the bottom` : 'north is at the top'}`);
  if (rp.rules.hex) {
    rp.map.render({
      space: b.space, backdrop, state: b.state, extra: b.extra || {}, names: b.names || {}, seat, colour, name: nameOf,
      selected: rp.selected, picking: false, overlay: null, showRanges: true,
    });
    return;
  }
  const w = b['order-text'] || {};
  rp.map.render({
    field: b.field, image, backdrop, edge, state: b.state, names: b.names || {}, etas: b.etas || {}, reach: b.reach || 0, reaching: b.reaching || [],
    words: { orders: w.orders || {}, acting: w.acting || {}, then: w.then || {} },
    seat, sides: b.game.sides, colour, name: nameOf, extra: b.extra || null,
    canMove: false, canPick: false, objective: null, selected: rp.selected, showRanges: true, showReach: true, pending: {},
  });
}

/** The log holds the view's events up to the one replayed, newest first. */
function drawLog() {
  const upTo = rp.at;
  if (upTo < rp.shown) rp.log.drop(upTo);
  const ctx = { colour, side: sideName };
  const add = [];
  for (const e of rp.index.events) {
    if (e.seq > upTo) break;
    if (e.seq > rp.shown) add.push({ ...e, summary: e.text });
  }
  rp.log.add(add, ctx);
  rp.shown = upTo;
  for (const li of $('log').querySelectorAll('li.current')) li.classList.remove('current');
  const top = $('log').firstElementChild;
  if (top) top.classList.add('current');
}

/** Moves by n events (the slider's stops). @param {number} n */
function step(n) {
  const i = stopOf(rp.at) + n;
  if (i < 0 || i >= rp.stops.length) { pause(); return; }
  go(rp.stops[i]);
}

/** Moves to the start of the turn before (or of this one, when past its start) or after. @param {number} dir */
function turnStep(dir) {
  const t = turnAt(rp.at);
  const here = turnStart(t);
  let to;
  if (dir < 0) to = here >= 0 && here < rp.at ? here : turnStart(t - 1) >= 0 ? turnStart(t - 1) : 0;
  else to = turnStart(t + 1) >= 0 ? turnStart(t + 1) : rp.stops[rp.stops.length - 1];
  go(to);
}

function play() {
  if (stopOf(rp.at) === rp.stops.length - 1) go(0);
  rp.playing = true;
  const b = document.querySelector('[data-vcr="play"]');
  b.textContent = '⏸ Pause';
  b.setAttribute('aria-pressed', 'true');
  b.setAttribute('aria-label', 'Pause');
  rp.timer = window.setTimeout(() => step(1), Number($('speed').value));
}

function pause() {
  rp.playing = false;
  window.clearTimeout(rp.timer);
  const b = document.querySelector('[data-vcr="play"]');
  b.textContent = '▶ Play';
  b.setAttribute('aria-pressed', 'false');
  b.setAttribute('aria-label', 'Play');
}

/** The place a deep link names: an event, or the start of a turn. @param {URLSearchParams} link */
function linked(link) {
  const seq = Number(link.get('seq'));
  if (link.has('seq') && Number.isInteger(seq) && seq >= 0) return seq;
  const t = Number(link.get('turn'));
  if (link.has('turn') && Number.isInteger(t)) {
    const s = turnStart(t);
    if (s >= 0) return s;
  }
  const first = (rp.index.turns || [])[0];
  return first ? first.seq : 0;
}

function wire() {
  const acts = {
    first: () => go(0),
    'turn-back': () => turnStep(-1),
    back: () => step(-1),
    play: () => (rp.playing ? pause() : play()),
    forward: () => step(1),
    'turn-forward': () => turnStep(1),
    last: () => go(rp.stops[rp.stops.length - 1]),
  };
  for (const b of document.querySelectorAll('[data-vcr]')) {
    const what = /** @type {HTMLElement} */ (b).dataset.vcr;
    b.addEventListener('click', () => { if (what !== 'play') pause(); acts[what](); });
  }
  $('slider').addEventListener('input', () => { pause(); go(rp.stops[Number($('slider').value)] || 0); });
  $('full-view').addEventListener('click', async () => {
    pause();
    const t = turnAt(rp.at);
    rp.full = !rp.full;
    try {
      await loadIndex();
    } catch (err) {
      rp.full = !rp.full;
      banner(sentence(err));
      return;
    }
    const s = turnStart(t);
    go(s >= 0 ? s : 0);
  });
  document.addEventListener('keydown', (e) => {
    // A field keeps its own keys (the slider steps by itself), and a
    // button its space bar.
    const t = /** @type {HTMLElement} */ (e.target);
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    if (t && t.tagName === 'BUTTON' && e.key === ' ') return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const key = { ArrowLeft: 'back', ArrowRight: 'forward', PageUp: 'turn-back', PageDown: 'turn-forward', Home: 'first', End: 'last', ' ': 'play' }[e.key];
    if (!key || !rp.index) return;
    e.preventDefault();
    if (key !== 'play') pause();
    acts[key]();
  });
  window.addEventListener('hashchange', () => {
    const link = new URLSearchParams(location.hash.replace(/^#/, ''));
    const seq = linked(link);
    if (seq !== rp.at) go(seq);
  });
  for (const b of document.querySelectorAll('[data-map]')) {
    b.addEventListener('click', () => {
      const what = /** @type {HTMLElement} */ (b).dataset.map;
      if (what === 'zoom-in') rp.map.zoom(1.5);
      else if (what === 'zoom-out') rp.map.zoom(1 / 1.5);
      else if (what === 'fit') rp.map.fit();
    });
  }
}

async function start() {
  const { token, link } = readLink();
  if (!token) {
    banner('Open this page from the game, or with your join link: the part after # is your seat.');
    return;
  }
  rp.api = new Api(token);
  try {
    rp.info = await rp.api.seat();
  } catch (err) {
    banner(err instanceof ApiError && err.status === 401 ? 'This join link is not a seat of any game on this server.' : sentence(err));
    return;
  }
  const game = new URLSearchParams(location.search).get('game');
  if (game && game !== rp.info.id) {
    banner(`This tab's seat is of game ${rp.info.id}, not of game ${game}: open the replay from that game's page.`);
    return;
  }
  rp.api.game = rp.info.id;
  rp.rules = await rulesModule(rp.info.rules);
  if (!rp.rules) {
    banner(`This page cannot show a game of the rule set ${rp.info.rules}.`);
    return;
  }
  $('game-title').textContent = rp.info.title;
  $('seat').textContent = rp.info.seat.label;
  document.querySelector('.seat-chip').classList.add(`c-${rp.info.seat.side ? makePalette(rp.info.sides || [])[rp.info.seat.side] : 'umpire'}`);
  const fog = $('fog-mode');
  fog.hidden = !rp.info.fog || rp.info.fog === 'off';
  fog.textContent = fog.hidden ? '' : `Fog of war: ${rp.info.fog}`;
  rp.palette = makePalette(rp.info.sides || []);
  try {
    await mountMap();
  } catch {
    banner('The map could not be loaded; reload the page.');
    return;
  }
  const hooks = { onPick: () => {}, onSelect: (ref) => { rp.selected = ref; if (rp.board) drawMap(); } };
  rp.map = new rp.rules.MapView($('map'), rp.rules.hex ? hooks : { ...hooks, onMove: () => {} });
  wire();
  rp.full = link.get('view') === 'full';
  try {
    await loadIndex();
  } catch (err) {
    if (!rp.full) { banner(sentence(err)); return; }
    rp.full = false; // a side's full view before the end: its own instead
    await loadIndex();
  }
  await go(linked(link));
}

start();
