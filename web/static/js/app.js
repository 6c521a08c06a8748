// The game page (/play): one seat's view of a game. Reads the seat's token
// from the join link's #fragment (then keeps it in sessionStorage and drops
// it from the address bar), draws the board, follows the event stream, and
// sends the seat's commands.

import { h, fill, num, pt, tenth, deg, squareOf, debounce, cap, copyText, count } from './dom.js';
import { Api, ApiError, sentence } from './api.js';
import { MapView } from './map.js';
import { renderOob } from './oob.js';
import { OrderForm } from './orders.js';
import { EventLog } from './log.js';
import { renderSheet, renderWordsSheet } from './sheet.js';
import { CommandPanel } from './bp.js';
import { CdPanel } from './cd.js';
import { HexMapView } from './hexmap.js';
import { NesPanel, renderNesOob } from './nes.js';
import { LobPanel, LobMapView, renderLobOob } from './lob.js';
import { showDiceMode, diceFacts } from './tabledice.js';
import { UmpireHand } from './umpire.js';

const TOKEN_KEY = 'orderly.seat';

const FACINGS = [['N', 0], ['NE', 45], ['E', 90], ['SE', 135], ['S', 180], ['SW', 225], ['W', 270], ['NW', 315]];

/** The page's one state object. */
const app = {
  /** @type {Api|null} */ api: null,
  /** @type {any} */ info: null,
  /** @type {any} */ board: null,
  boardKey: '',
  /** @type {{kind:string, id:string}|null} */ selected: null,
  /** @type {number[]|null} */ objective: null,
  /** @type {Object<string, number[]>} */ pending: {},
  showRanges: true,
  showReach: true,
  tab: 'orders',
  step: '',
  /** @type {Object<string,string>} */ palette: {},
  /** @type {MapView|null} */ map: null,
  /** @type {OrderForm|null} */ orders: null,
  /** @type {EventLog|null} */ log: null,
  /** @type {CommandPanel|null} */ bp: null,
  /** The command panel of a hex game (NES, LOB). @type {NesPanel|null} */ hex: null,
  /** The umpire's hand: acting for a side, place, sides' views. @type {UmpireHand|null} */ hand: null,
  refreshing: false,
  again: false,
  revealing: false,
  bannerTimer: 0,
  /** The step the banner was shown in: it clears when the next begins. */
  bannerStep: '',
};

const $ = (id) => /** @type {any} */ (document.getElementById(id));

// ---- helpers over the board ------------------------------------------------

/** @param {string} id a formation, general or unit id */
function name(id) {
  if (!id) return '';
  const b = app.board;
  if (b && b.names && b.names[id]) return b.names[id];
  const named = b && [...(b.state.formations || []), ...(b.state.units || [])].find((x) => x.id === id && x.name);
  return named ? named.name : id;
}

/** @param {string} id a general's id */
function nameGeneral(id) {
  const g = app.board && (app.board.state.generals || app.board.state.leaders || []).find((x) => x.id === id);
  return g ? g.name || g.id : name(id);
}

/** @param {string} id a side's id */
function sideName(id) {
  const sd = app.info && (app.info.sides || []).find((x) => x.id === id);
  return sd ? sd.name : id === 'umpire' ? 'umpire' : id;
}

/** The colour class of a side: French blue, the British red, others after. */
function colour(side) {
  return app.palette[side] || 'grey';
}

function makePalette(sides) {
  const out = {};
  const free = ['blue', 'red', 'green', 'grey'];
  const take = (c) => { free.splice(free.indexOf(c), 1); return c; };
  for (const sd of sides) if (sd.nation === 'french' && free.includes('blue')) out[sd.id] = take('blue');
  for (const sd of sides) if (!out[sd.id] && /british|english/.test(sd.nation) && free.includes('red')) out[sd.id] = take('red');
  for (const sd of sides) if (!out[sd.id]) out[sd.id] = free.length ? take(free[0]) : 'grey';
  return out;
}

function seat() { return app.info.seat; }
function verbs() { return app.info.verbs || []; }
function can(verb) { return !app.info.over && verbs().includes(verb); }

/**
 * The commands of this step the server offers this seat for one piece or
 * formation.
 * @param {string} id
 * @returns {string[]}
 */
function offers(id) { return (app.board && app.board.offers && app.board.offers[id]) || []; }
function isUmpire() { return seat().role === 'umpire'; }
function mine(side) { return isUmpire() || side === seat().side; }

/**
 * Formations an order may be written for now (the server offers write for
 * them), in tree order with their depth under the army.
 */
function writable() {
  const st = app.board.state;
  const out = [];
  const walk = (parent, depth) => {
    for (const f of st.formations) {
      if ((f.parent || '') !== parent) continue;
      if (offers(f.id).includes('write')) out.push({ ...f, depth });
      walk(f.id, (f.parent || '') === '' ? depth : depth + 1);
    }
  };
  walk('', 0);
  return out;
}

/**
 * The turn a messenger of the seat's should deliver, from the board.
 * @param {string} id
 */
function etaOf(id) {
  const b = app.board;
  return b.etas ? b.etas[id] : undefined;
}

function etas() {
  const out = {};
  for (const id of Object.keys(app.board.etas || {})) out[id] = etaOf(id);
  return out;
}

/** The orders of the board in the server's words. */
function words() {
  const w = app.board['order-text'] || {};
  return { orders: w.orders || {}, acting: w.acting || {}, then: w.then || {} };
}

// ---- the banner and the connection ---------------------------------------

/**
 * Shows one sentence in the banner (not blocking anything).
 * @param {string} msg
 * @param {'error'|'info'} [kind]
 */
function banner(msg, kind = 'error', extra = null) {
  const b = $('banner');
  if (!msg) { b.hidden = true; return; } // nothing to say: a command went through
  b.querySelector('.banner-text').textContent = msg;
  for (const x of b.querySelectorAll('.banner-extra')) x.remove();
  if (extra) b.querySelector('.banner-close').before(extra);
  b.dataset.kind = kind;
  b.hidden = false;
  app.bannerStep = stepKey();
  clearTimeout(app.bannerTimer);
  // A banner that asks for something stays until answered or dismissed.
  if (!extra) app.bannerTimer = setTimeout(() => { b.hidden = true; }, kind === 'error' ? 12000 : 6000);
}

/** Where the game stands, step by step: a banner lasts until it moves on. */
function stepKey() {
  return app.info ? `${app.info.turn}/${app.info.phase}/${app.info.step}/${app.info.over}` : '';
}

/** @param {string} state connecting, live, reconnecting or stopped */
function connection(state) {
  const c = $('conn');
  c.dataset.state = state;
  c.textContent = { live: 'live', reconnecting: 'reconnecting…', connecting: 'connecting…', stopped: 'offline' }[state] || state;
}

// ---- loading -------------------------------------------------------------

async function refresh() {
  if (app.refreshing) { app.again = true; return; }
  app.refreshing = true;
  try {
    do {
      app.again = false;
      const b = await app.api.board();
      const key = JSON.stringify(b);
      if (key === app.boardKey) continue; // nothing changed: keep the page as it is
      app.boardKey = key;
      app.board = b;
      app.info = b.game;
      render();
      if (app.hand) app.hand.refreshed();
    } while (app.again);
  } catch (err) {
    banner(sentence(err));
  } finally {
    app.refreshing = false;
  }
}

const refreshSoon = debounce(refresh, 120);

/** @param {any[]} events */
function logEvents(events) {
  app.log.add(events, { colour, side: sideName });
}

// ---- rendering -------------------------------------------------------------

/**
 * The rows of a hex game's order sheet, in the board's words: LOB's
 * orders, or each NES command unit's order in force and on its way.
 * @returns {{id:string, words:string, live:boolean}[]}
 */
function sheetRows() {
  const x = app.board.extra || {};
  if (x.orders) return x.orders.map((o) => ({ id: o.id, words: o.words, live: !!o.live }));
  return Object.entries(x.leaders || {}).filter(([, b]) => b.order || b.pending)
    .map(([id, b]) => ({ id: nameGeneral(id), words: [b.order, b.pending && `on its way: ${b.pending}`].filter(Boolean).join('; '), live: true }));
}

/**
 * Where the seat's generals stand on a table, for the printed sheet: the
 * position and its square of the entry grid.
 * @returns {import('./sheet.js').Where[]}
 */
function whereGenerals() {
  const st = app.board.state;
  const f = app.board.field;
  const kinds = Object.fromEntries((st.formations || []).map((x) => [x.id, x.kind]));
  return (st.generals || []).filter((g) => g['on-table'] && !g.fate && mine(g.side)).map((g) => ({
    who: g.name || g.id, side: g.side, at: pt(g.at), square: squareOf(f, g.at),
    role: g.commands ? `${name(g.commands)}${kinds[g.commands] ? ` (${kinds[g.commands]})` : ''}` : g.brigade ? name(g.brigade) : 'army',
  }));
}

/**
 * Where the seat's leaders stand on a hex map, for the printed sheet: the
 * printed label of their hex.
 * @returns {import('./sheet.js').Where[]}
 */
function whereLeaders() {
  const hx = (app.board.space || {}).hex;
  if (!hx) return [];
  const label = (p) => String(p[0]).padStart(hx.digits, '0') + String(p[1]).padStart(hx.digits, '0');
  return (app.board.state.leaders || []).filter((l) => l['on-table'] && mine(l.side)).map((l) => ({
    who: nameGeneral(l.id), side: l.side, at: label(l.at), role: l.role || (l.army ? 'army' : name(l.formation || '')),
  }));
}

function render() {
  // A message is about the step it was shown in: the next step clears it.
  if (!$('banner').hidden && app.bannerStep && app.bannerStep !== stepKey()) banner('');
  const step = `${app.info.turn}/${app.info.step}/${app.info.over}`;
  if (app.step && app.step !== step && !isUmpire() && !app.bp && !app.hex) {
    // At a new step, show the tab it is about: orders to write, or the army.
    if (app.tab === 'orders' && !can('write')) showTab('army');
    else if (app.tab === 'army' && can('write')) showTab('orders');
  }
  app.step = step;
  renderControls();
  if (app.hex) {
    app.hex.update(app.board, app.selected);
    renderMap();
    const oob = app.info.rules === 'lob' ? renderLobOob : renderNesOob;
    oob($('oob'), { board: app.board, seat: seat(), info: app.info, name: nameGeneral, colour, onSelect: (id) => select({ kind: 'general', id }) });
    renderWordsSheet($('sheet-body'), { info: app.info, rows: sheetRows(), where: whereLeaders(), sideName });
    renderSelection();
    renderGame();
    renderHint();
    return;
  }
  if (app.bp) app.bp.update(app.board, app.selected);
  else app.orders.update(); // first: whether the map may pick an objective depends on it
  renderMap();
  renderOob($('oob'), {
    state: app.board.state, seat: seat(), info: app.info, words: words(), name, colour, etaOf,
    canWrite: (id) => can('write') && (!isUmpire() || !!app.board.acting) && writable().some((f) => f.id === id),
    canComplete: (id) => offers(id).includes('complete'),
    onOrder: (id) => { showTab('orders'); app.orders.preselect(id); },
    onSelectGeneral: (id) => { select({ kind: 'general', id }); },
    onComplete: (id) => act({ complete: id }, `${name(id)} completed its attack order.`),
  });
  renderSheet($('sheet-body'), { info: app.info, state: app.board.state, field: app.board.field, where: whereGenerals(), name, nameGeneral, sideName });
  renderSelection();
  renderGame();
  renderHint();
}

function renderControls() {
  const info = app.info;
  $('game-title').textContent = info.title;
  // Fog of war, as the server plays the game: shown only when it is on.
  const fog = $('fog-mode');
  fog.hidden = !info.fog || info.fog === 'off';
  fog.textContent = fog.hidden ? '' : `Fog of war: ${info.fog}`;
  fog.title = fog.hidden ? '' : `${info.fog === 'strict' ? 'Each commander sees only the enemy his own formation spots' : 'Each side sees only the enemy its own pieces spot'}; a faded, dashed outline shows where an enemy was last seen.`;
  showDiceMode($('dice-mode'), info); // table or mixed dice: the page asks for the faces thrown
  document.title = `${seat().label} · turn ${info.turn} · ${info.title} — orderly`;
  $('turn').textContent = String(info.turn);
  $('turns').textContent = String(info.turns);
  $('phase').textContent = info.over ? 'game over' : info.phase;
  $('step').textContent = info.over ? '—' : info.step;
  $('step').classList.toggle('player', !!info.player && !info.over);
  const ready = new Set(info.ready || []);
  fill($('ready-list'), ...(info.sides || []).map((sd) => h(`li.c-${colour(sd.id)}${ready.has(sd.id) ? '.is-ready' : ''}`,
    { dataset: { side: sd.id }, title: info.player ? (ready.has(sd.id) ? `${sd.name} is ready` : `waiting for ${sd.name}`) : 'the step runs by itself' },
    h('span.swatch'), h('span', { text: sd.name }), h('span.state', { text: !info.player ? '' : ready.has(sd.id) ? '✓ ready' : 'playing' }))));
  const rb = $('ready');
  const eb = $('end-step');
  if (isUmpire()) {
    rb.hidden = true;
    eb.hidden = false;
    eb.disabled = !info.player || info.over;
  } else {
    rb.hidden = false;
    eb.hidden = true;
    const done = ready.has(seat().side);
    rb.disabled = !info.player || info.over || done || !verbs().includes('ready');
    rb.textContent = done ? 'Ready ✓' : 'Ready';
    rb.title = done ? `Waiting for the other side to finish the ${info.step} step` : `Done with the ${info.step} step`;
  }
}

/**
 * The umpire acts for side now ('' for himself): in NB he writes its
 * orders, so the Orders tab shows while he acts; the board is asked for
 * again with that side's offers.
 * @param {string} side
 */
function actingChanged(side) {
  const btn = document.querySelector('.tab-btn[data-tab="orders"]');
  const orders = !!side && !app.bp && !app.hex;
  btn.hidden = !orders;
  if (orders) showTab('orders');
  else if (app.tab === 'orders') showTab('log');
  refresh();
}

/** Whether a tap on the map is the umpire's choice of a place (umpire.js). */
function umpirePicks() { return !!(app.hand && app.hand.picking()); }

function renderMap() {
  const b = app.board;
  const edge = (b.space || {}).edge;
  $('map').setAttribute('aria-label', `${app.hex ? 'The hex map' : 'The table, in inches'}; ${edge ? `your base edge (${edge}) is at the bottom` : 'north is at the top'}`);
  if (app.hex) {
    app.map.render({
      space: b.space, state: b.state, extra: b.extra || {}, names: b.names || {}, seat: seat(), colour, name: nameGeneral,
      selected: app.selected, picking: app.hex.picking() || umpirePicks(), overlay: app.hex.overlay, showRanges: app.showRanges,
    });
    return;
  }
  app.map.render({
    field: b.field, edge, state: b.state, names: b.names, etas: etas(), reach: b.reach || 0, reaching: b.reaching || [], words: words(),
    seat: seat(), sides: app.info.sides, colour, name: nameGeneral, extra: b.extra || null,
    canMove: can('move'), canPick: umpirePicks() || (app.bp ? !!app.bp.picking : app.orders.enabled && app.tab === 'orders'),
    objective: app.objective, selected: app.selected,
    showRanges: app.showRanges, showReach: app.showReach, pending: app.pending,
  });
}

function renderHint() {
  const hint = $('map-hint');
  let t = '';
  if (app.hex) {
    const pick = app.hex.pick;
    t = pick === 'sight' ? 'Tap two hexes to see whether one sees the other.'
      : pick ? `Tap the hex (${pick}).` : app.selected ? '' : 'Tap a counter to select it; the panel offers what it may do.';
    hint.textContent = t;
    hint.hidden = !t; // once a piece is selected the hint gives way to the map
    return;
  }
  if (app.orders.enabled && app.tab === 'orders') t = 'Tap the map to place the order’s objective.';
  else if (can('move') && !isUmpire()) t = 'Drag your units and generals to move them; tap one for its details.';
  else if (can('move')) t = 'Drag any piece to move it; tap one for its details.';
  hint.textContent = t;
  hint.hidden = !t;
}

function renderGame() {
  const info = app.info;
  const facts = [
    ['Game', h('code', { text: info.id })], ['Scenario', info.title], ['Rules', info.rules],
    ...(info.fog && info.fog !== 'off' ? [['Fog of war', info.fog]] : []),
    ...diceFacts(info),
    ['Seat', `${seat().label}${seat().role !== 'side' ? ` (${seat().role})` : ''}`],
    ...(info.sides || []).map((sd) => [cap(sd.id), `${sd.name}: ${sd.nation}, ${sd.edge} edge`]),
  ];
  if (info.head) {
    facts.push(['Log fingerprint', h('code', {
      id: 'fingerprint', text: info.head.slice(0, 16),
      title: `${info.head}\nThe hash of the last event this seat has seen. Note it at the end of the game: orderly verify --head HASH then checks that an exported game is the one this seat played.`,
    })]);
  }
  fill($('game-facts'), ...facts.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', null, v)]));
  fill($('seeds'), ...(info.seeds || []).map((sd) => h('li', null,
    h('div.small', { text: `for rolls from event ${sd.from}` }),
    h('div', null, h('span.muted.small', { text: 'commitment ' }), h('code.wrap', { text: sd.commitment })),
    sd.key ? h('div', null, h('span.muted.small', { text: 'revealed key ' }), h('code.wrap', { text: sd.key })) : h('div.muted.small', { text: 'key still secret' }))));
  if (isUmpire()) {
    $('reveal').disabled = app.revealing || info.over;
    $('reveal-note').textContent = info.over
      ? 'The game has ended, so the server revealed the seed by itself.'
      : 'The seed is revealed by itself when the game ends; revealing it sooner needs confirming.';
    if (info.over) $('reveal-confirm').hidden = true;
  }
}

// ---- selection -------------------------------------------------------------

/** @param {{kind:string,id:string}|null} ref */
function select(ref) {
  app.selected = ref;
  renderSelection();
  renderMap();
  if (app.bp && app.board) app.bp.update(app.board, app.selected);
  if (app.hex && app.board) { app.hex.update(app.board, app.selected); renderHint(); }
}

function renderSelection() {
  const box = $('selection');
  if (app.hand) app.hand.selectionChanged(app.selected);
  if (app.hex) { box.hidden = true; fill(box); return; } // the command panel shows the selected piece
  const ref = app.selected;
  const st = app.board && app.board.state;
  if (!ref || !st) { box.hidden = true; fill(box); return; }
  let body = null;
  if (ref.kind === 'unit') body = unitCard(st.units.find((u) => u.id === ref.id));
  else if (ref.kind === 'general') body = generalCard(st.generals.find((g) => g.id === ref.id));
  else if (ref.kind === 'messenger') body = messengerCard(st.messengers.find((m) => m.id === ref.id));
  if (!body) { app.selected = null; box.hidden = true; fill(box); return; }
  fill(box, h('button.close', { type: 'button', 'aria-label': 'Close', text: '×', on: { click: () => select(null) } }), body, ...(app.hand ? app.hand.card(ref) : []));
  box.hidden = false;
}

function unitCard(u) {
  if (!u) return null;
  const acts = [];
  const own = mine(u.side);
  if (app.bp) return bpUnitCard(u);
  if (own && can('move') && u['on-table']) {
    // The formations the board gives its type, and the one it stands in.
    const given = (app.board.shapes || {})[u.type] || [];
    const shapes = given.includes(u.formation) ? given : [u.formation, ...given];
    const shape = h('select', { 'aria-label': 'Formation' }, ...shapes.map((sh) => h('option', { value: sh, text: sh, selected: sh === u.formation })));
    const face = h('select', { 'aria-label': 'Facing' }, ...FACINGS.map(([n, d]) => h('option', { value: d, text: `face ${n}`, selected: Math.round((u.facing || 0) / 45) * 45 % 360 === d })));
    acts.push(h('div.row', null, shape, face, h('button.btn.small', { type: 'button', text: 'Apply', on: { click: () => {
      /** @type {any} */
      const mv = { unit: u.id, to: u.at };
      if (shape.value !== u.formation) mv.formation = shape.value;
      if (Number(face.value) !== (u.facing || 0)) mv.facing = Number(face.value);
      act({ move: mv }, `${u.id} now in ${shape.value}.`);
    } } })));
  }
  const buttons = [];
  // The server says which commands this seat may give for the unit now;
  // combat names one of the divisions the unit's division is engaged with.
  const offered = offers(u.id);
  if (offered.includes('combat')) for (const w of ((app.board.state.formations || []).find((f) => f.id === u.division) || {}).with || []) buttons.push([`Combat with ${w}`, { combat: { units: [u.id], target: w } }, `${u.id} starts combat with ${w}.`]);
  if (offered.includes('react')) buttons.push(['React', { react: [u.id] }, `${u.id} reacts.`]);
  if (offered.includes('rout')) buttons.push(['Rout', { rout: [u.id] }, `${u.id} is routed.`]);
  if (offered.includes('rally')) buttons.push(['Rally', { rally: [u.id] }, `${u.id} rallies.`]);
  if (buttons.length) acts.push(h('div.row', null, ...buttons.map(([label, cmd, done]) => h('button.btn.small', { type: 'button', text: label, on: { click: () => act(cmd, done) } }))));
  return h('div', null,
    h(`h4.c-${colour(u.side)}`, null, h('span.swatch'), u.id),
    h('p', { text: `${u.type.replace('-', ' ')} · ${u.formation} · ${u.status}` }),
    h('p.muted.small', { text: `${name(u.division)} (${u.division}) · at ${pt(u.at)} · speed ${num(u.speed)}″${u.moved ? ` · moved ${tenth(u.moved)}″` : ''}` }),
    ...acts);
}

/** A unit of a staff-rating or class dice game: its marks and casualties; its commands are in the Command tab. */
function bpUnitCard(u) {
  const marks = [u.disordered ? 'disordered' : '', u.shaken ? 'shaken' : '', (u.engaged || []).length ? 'in combat' : ''].filter(Boolean);
  if (app.info.rules === 'cd') {
    return h('div', null,
      h(`h4.c-${colour(u.side)}`, null, h('span.swatch'), name(u.id)),
      h('p', { text: `${u.type} · ${u.formation}${marks.length ? ` · ${marks.join(', ')}` : ''}` }),
      h('p.muted.small', { text: `CW ${u.cw ?? '—'} · casualties ${u.casualties || 0} · ${count(u.stands, 'stand', 'stands')} · ${name(u.brigade)} · at ${pt(u.at)}, facing ${deg(u.facing)}` }));
  }
  return h('div', null,
    h(`h4.c-${colour(u.side)}`, null, h('span.swatch'), name(u.id)),
    h('p', { text: `${u.type} · ${u.formation}${marks.length ? ` · ${marks.join(', ')}` : ''}` }),
    h('p.muted.small', { text: `casualties ${u.casualties || 0} of stamina ${u.stamina} · ${name(u.brigade)} · at ${pt(u.at)}, facing ${deg(u.facing)}` }));
}

function generalCard(g) {
  if (!g) return null;
  const st = app.board.state;
  if (app.bp && app.info.rules === 'cd') {
    return h('div', null,
      h(`h4.c-${colour(g.side)}`, null, h('span.swatch'), g.name || g.id),
      h('p', { text: `commands ${name(g.commands)}${g.lost ? ' (lost)' : ''}` }),
      h('p.muted.small', { text: `rated ${g.rating}${g.bonus ? ` ${g.bonus > 0 ? '+' : ''}${g.bonus}` : ''} · at ${pt(g.at)}` }),
      offers(g.id).includes('lose') ? h('button.btn.small.danger', { type: 'button', dataset: { lose: g.id }, text: 'Killed or disabled', title: 'CD-8: the next in command takes over',
        on: { click: () => act({ lose: g.id }, `${g.name || g.id} is lost.`) } }) : null);
  }
  if (app.bp) {
    return h('div', null,
      h(`h4.c-${colour(g.side)}`, null, h('span.swatch'), g.name || g.id),
      h('p', { text: g.brigade ? `commands ${name(g.brigade)}` : 'army commander' }),
      h('p.muted.small', { text: `staff rating ${g.staff}${g.trait ? `, ${g.trait}` : ''} · at ${pt(g.at)}${g.joined ? ` · with ${name(g.joined)}` : ''}${g.moved ? ' · has moved' : ''}` }));
  }
  const f = st.formations.find((x) => x.id === g.commands);
  const acts = [];
  if (mine(g.side) && g['on-table'] && !g.fate) {
    if (g.attached && can('detach')) acts.push(h('button.btn.small', { type: 'button', text: `Detach from ${nameGeneral(g.attached)}`, on: { click: () => act({ detach: g.id }, `${g.name || g.id} detached.`) } }));
    if (!g.attached && can('attach')) {
      const near = [
        ...st.units.filter((u) => u.side === g.side && u['on-table']).map((u) => ({ id: u.id, d: Math.hypot(u.at[0] - g.at[0], u.at[1] - g.at[1]), label: u.id })),
        ...st.generals.filter((o) => o.side === g.side && o.id !== g.id && o['on-table'] && !o.fate).map((o) => ({ id: o.id, d: Math.hypot(o.at[0] - g.at[0], o.at[1] - g.at[1]), label: o.name || o.id })),
      ].sort((a, b) => a.d - b.d).slice(0, 10);
      const sel = h('select', { 'aria-label': 'Attach to' }, ...near.map((n) => h('option', { value: n.id, text: `${n.label} (${tenth(n.d)}″)` })));
      acts.push(h('div.row', null, sel, h('button.btn.small', { type: 'button', text: 'Attach', title: 'NB-13', on: { click: () => act({ attach: { general: g.id, to: sel.value } }, `${g.name || g.id} attached to ${sel.value}.`) } })));
    }
  }
  return h('div', null,
    h(`h4.c-${colour(g.side)}`, null, h('span.swatch'), g.name || g.id),
    h('p', { text: f ? `${f.kind === 'army' ? 'army commander' : `commands ${name(f.id)} (${f.id})`}` : '' }),
    h('p.muted.small', { text: `${g.quality} · command range ${num(g.range)}″ · at ${pt(g.at)}${g.attached ? ` · attached to ${nameGeneral(g.attached)}` : ''}${g.fate ? ` · ${g.fate}` : ''}` }),
    ...acts);
}

function messengerCard(m) {
  if (!m) return null;
  const own = mine(m.side);
  const acts = [];
  const eta = etaOf(m.id);
  if (own && can('redirect') && m.to) {
    const gens = app.board.state.generals.filter((g) => g.side === m.side && g.id !== m.to && g['on-table'] && !g.fate);
    const sel = h('select', { 'aria-label': 'Ride to' }, ...gens.map((g) => h('option', { value: g.id, text: g.name || g.id })));
    acts.push(h('div.row', null, sel, h('button.btn.small', { type: 'button', text: 'Redirect', title: 'NB-11', on: { click: () => act({ redirect: { messenger: m.id, to: sel.value } }, `${m.id} redirected.`) } })));
  }
  return h('div', null,
    h(`h4.c-${colour(m.side)}`, null, h('span.swatch'), `Messenger ${m.id}`),
    own
      ? h('p', { text: `${m.order ? `carries ${m.order}` : 'carries an order'}${m.to ? ` to ${nameGeneral(m.to)}` : ''}` })
      : h('p', { text: `${sideName(m.side)}: what it carries, and to whom, is hidden.` }),
    h('p.muted.small', { text: `at ${pt(m.at)} · rides ${num(m.speed)}″ a turn${own && eta ? ` · arrives about turn ${eta}` : ''}` }),
    ...acts);
}

// ---- commands --------------------------------------------------------------

/**
 * Sends a command; shows the rule's refusal in the banner.
 * @param {object} cmd
 * @param {string} [done] a sentence to show when it is accepted
 * @returns {Promise<boolean>}
 */
async function act(cmd, done) {
  try {
    await app.api.command(cmd);
    banner(''); // it went through: an earlier refusal no longer stands
    await refresh();
    if (done) banner(done, 'info');
    return true;
  } catch (err) {
    banner(sentence(err));
    return false;
  }
}

/**
 * Moves a piece dragged on the map.
 * @param {{kind:string,id:string}} ref @param {number[]} to
 */
async function movePiece(ref, to) {
  app.pending[ref.id] = to;
  try {
    await app.api.command({ move: { [ref.kind]: ref.id, to } });
    banner('');
    await refresh();
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.override === ref.id && isUmpire()) {
      // The server says the umpire may make this move all the same, with
      // a reason the log records.
      const reason = h('input.override-reason', { type: 'text', maxLength: 200, placeholder: 'reason', 'aria-label': 'Reason for allowing the move' });
      const form = h('form.banner-extra', { on: { submit: (ev) => {
        ev.preventDefault();
        const why = reason.value.trim();
        if (!why) { reason.focus(); return; }
        act({ move: { [ref.kind]: ref.id, to, override: why } }, `${name(ref.id)} moved by the umpire's leave.`);
      } } }, reason, h('button.btn.small', { type: 'submit', text: 'Allow' }));
      banner(sentence(err), 'error', form);
      reason.focus();
    } else {
      // Any other refusal: the umpire may place the piece there all the same.
      banner(sentence(err), 'error', app.hand && app.hand.offerFor(sentence(err)));
    }
    return false;
  } finally {
    delete app.pending[ref.id];
  }
}

/**
 * The banner of a command panel: a refused move comes with the umpire's
 * offer to place the piece there all the same.
 * @param {string} msg
 */
function panelBanner(msg) {
  banner(msg, 'error', app.hand && app.hand.offerFor(msg));
}

// ---- tabs and tools --------------------------------------------------------

/** @param {string} tab */
function showTab(tab) {
  app.tab = tab;
  for (const b of document.querySelectorAll('.tab-btn')) b.setAttribute('aria-selected', String(b.dataset.tab === tab));
  for (const p of document.querySelectorAll('.tab')) p.hidden = p.id !== `tab-${tab}`;
  app.log.setVisible(tab === 'log');
  if (app.board) { renderMap(); renderHint(); }
}

function wire() {
  for (const b of document.querySelectorAll('.tab-btn')) b.addEventListener('click', () => showTab(b.dataset.tab));
  $('banner').querySelector('.banner-close').addEventListener('click', () => { $('banner').hidden = true; });
  $('ready').addEventListener('click', async (ev) => {
    const btn = ev.currentTarget;
    btn.disabled = true;
    if (!(await act({ ready: true }))) btn.disabled = false;
  });
  $('end-step').addEventListener('click', async (ev) => {
    const btn = ev.currentTarget;
    btn.disabled = true;
    if (!(await act({ end: true }, `The ${app.info.step} step was ended.`))) btn.disabled = false;
  });
  $('print-orders').addEventListener('click', () => openSheet(true));
  $('sheet-close').addEventListener('click', () => openSheet(false));
  $('sheet-print').addEventListener('click', () => window.print());
  for (const b of document.querySelectorAll('[data-map]')) {
    b.addEventListener('click', () => {
      const what = b.dataset.map;
      if (what === 'zoom-in') app.map.zoom(1.5);
      else if (what === 'zoom-out') app.map.zoom(1 / 1.5);
      else if (what === 'fit') app.map.fit();
      else if (what === 'ranges' || what === 'reach') {
        const key = what === 'ranges' ? 'showRanges' : 'showReach';
        app[key] = !app[key];
        b.setAttribute('aria-pressed', String(app[key]));
        renderMap();
      }
    });
  }
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      if (!$('sheet').hidden) openSheet(false);
      else select(null);
    }
  });
  $('reveal').addEventListener('click', () => reveal(false));
  $('reveal-anyway').addEventListener('click', () => reveal(true));
  $('reveal-cancel').addEventListener('click', () => { $('reveal-confirm').hidden = true; $('reveal').focus(); });
  $('export').addEventListener('click', async () => {
    try {
      const blob = await app.api.exportBlob($('export-secrets').checked);
      const a = $('export-link');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(blob);
      a.download = `orderly-${app.info.id}-turn${app.info.turn}${$('export-secrets').checked ? '-secret' : ''}.json`;
      a.hidden = false;
      a.textContent = `Save ${a.download}`;
      a.click();
    } catch (err) { banner(sentence(err)); }
  });
}

/**
 * Reveals the dice seed. Before the end of the game the server asks for
 * confirmation, saying which secret rolls still have effects to come: the
 * page shows that, and Reveal anyway sends the confirmation.
 * @param {boolean} confirm
 */
async function reveal(confirm) {
  if (app.revealing) return;
  app.revealing = true;
  $('reveal').disabled = true;
  $('reveal-anyway').disabled = true;
  try {
    const r = await app.api.reveal(confirm);
    $('reveal-confirm').hidden = true;
    banner(`Seed revealed; new rolls use a fresh seed, committed as ${r.next.commitment.slice(0, 12)}….`, 'info');
  } catch (err) {
    if (!confirm && err instanceof ApiError && err.code === 'confirm') {
      showRevealConfirm(err);
    } else {
      $('reveal-confirm').hidden = true;
      banner(sentence(err));
    }
  } finally {
    app.revealing = false;
    $('reveal').disabled = !!(app.info && app.info.over);
    $('reveal-anyway').disabled = false;
  }
  await refresh();
}

/**
 * Shows what a reveal before the end would expose, as the server said it.
 * @param {ApiError} err
 */
function showRevealConfirm(err) {
  $('reveal-confirm-text').textContent = cap(err.text);
  const details = err.details.length ? err.details : ['(the server listed none)'];
  fill($('reveal-confirm-details'), ...details.map((d) => h('li', { text: d })));
  const box = $('reveal-confirm');
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
  $('reveal-cancel').focus();
}

/** @param {boolean} open */
function openSheet(open) {
  $('sheet').hidden = !open;
  document.body.classList.toggle('sheet-open', open);
}

async function loadSeats() {
  try {
    const seats = await app.api.seats();
    fill($('seats'), ...seats.map((s) => {
      const out = h('div.reissued', { hidden: true, 'aria-live': 'polite' });
      const btn = h('button.btn.small', {
        type: 'button', text: 'New link', title: `Make a new join link for ${s.label}; the old one stops working`,
        dataset: { reissue: s.name },
      });
      btn.addEventListener('click', () => reissue(s, btn, out));
      return h('li', { dataset: { role: s.role, side: s.side || undefined, name: s.name } },
        h('div.seat-row', null,
          h('span.seat-who', null, h('b', { text: s.label }), h('span.muted.small', { text: ` ${s.role}${s.side ? ` · ${s.side}` : ''}${s.formation ? ` · ${s.formation}` : ''}` })),
          btn),
        out);
    }));
  } catch (err) { banner(sentence(err)); }
}

/**
 * Gives a seat a new join link and shows it; the old one stops working.
 * Reissuing the umpire's own seat moves this page to the new token.
 * @param {{name:string, label:string}} s the seat, as the seat list gives it
 * @param {HTMLButtonElement} btn its New link button
 * @param {HTMLElement} out where the new link is shown
 */
async function reissue(s, btn, out) {
  btn.disabled = true;
  try {
    const made = await app.api.reissue(s.name);
    const own = made.name === seat().name;
    if (own) {
      app.api.token = made.token;
      try { sessionStorage.setItem(TOKEN_KEY, made.token); } catch { /* private mode: memory only */ }
    }
    const url = `${location.origin}/play#${made.token}`;
    const copy = h('button.btn.small', { type: 'button', text: 'Copy' });
    copy.addEventListener('click', () => copyText(url, copy));
    fill(out,
      h('p.warning.small', { text: own
        ? `New link for ${made.label}: the old one no longer works. This page uses the new one already.`
        : `New link for ${made.label}: give it to the player; the old one no longer works.` }),
      h('div.link-row', null, h('a.join', { href: url, target: '_blank', rel: 'noopener', text: url }), copy));
    out.hidden = false;
  } catch (err) {
    banner(sentence(err));
  } finally {
    btn.disabled = false;
  }
}

// ---- start -------------------------------------------------------------------

/** Reads the token from the join link, keeps it for this tab, hides it. */
function readToken() {
  const hash = location.hash.replace(/^#/, '');
  if (hash) {
    try { sessionStorage.setItem(TOKEN_KEY, hash); } catch { /* private mode: memory only */ }
    history.replaceState(null, '', location.pathname + location.search);
    return hash;
  }
  try { return sessionStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}

async function start() {
  wire();
  app.log = new EventLog($('log'), $('log-new'));
  const token = readToken();
  if (!token) {
    connection('stopped');
    banner('Open this page with your join link: the part after # is your seat.');
    return;
  }
  app.api = new Api(token);
  app.orders = new OrderForm({
    api: app.api,
    model: () => app.board && { info: app.info, state: app.board.state, field: app.board.field, name, nameGeneral, writable: writable(), acting: app.board.acting || '' },
    onObjective: (p) => { app.objective = p; if (app.board) renderMap(); },
    onSent: () => refresh(),
    banner,
  });
  try {
    app.info = await app.api.seat();
  } catch (err) {
    connection('stopped');
    banner(err instanceof ApiError && err.status === 401 ? 'This join link is not a seat of any game on this server.' : sentence(err));
    return;
  }
  app.api.game = app.info.id;
  if (app.info.rules === 'nes' || app.info.rules === 'lob') {
    // A hex game: the hex map, and a command panel in place of the order form.
    const [Panel, View] = app.info.rules === 'lob' ? [LobPanel, LobMapView] : [NesPanel, HexMapView];
    app.hex = new Panel($('bp-panel'), { api: app.api, refresh, banner: panelBanner, name: nameGeneral, select, redraw: () => { renderMap(); renderHint(); } });
    app.map = new View($('map'), { onPick: (p) => { if (!(app.hand && app.hand.onPick(p))) app.hex.onPick(p); }, onSelect: (ref) => select(ref) });
  } else {
    app.map = new MapView($('map'), {
      onPick: (p) => { if (app.hand && app.hand.onPick(p)) return; if (app.bp && app.bp.picking) app.bp.onPick(p); else app.orders.setObjective(p); },
      onSelect: (ref) => select(ref),
      onMove: movePiece,
    });
  }
  app.palette = makePalette(app.info.sides || []);
  const me = seat();
  $('seat').textContent = me.label;
  document.querySelector('.seat-chip').classList.add(`c-${me.side ? colour(me.side) : 'umpire'}`);
  document.body.classList.add(`role-${me.role}`);
  if (isUmpire()) {
    app.showReach = false;
    document.querySelector('[data-map="reach"]').setAttribute('aria-pressed', 'false');
    $('umpire-tools').hidden = false;
    $('game-tab-btn').textContent = 'Umpire';
    document.querySelector('.tab-btn[data-tab="orders"]').hidden = true; // the umpire writes no orders
    showTab('log');
    loadSeats();
    app.hand = new UmpireHand({
      api: app.api, info: () => app.info, board: () => app.board, map: () => app.map, banner, act, select,
      redraw: () => { renderMap(); renderHint(); }, name: nameGeneral, sideName, colour, acting: actingChanged,
    });
    app.hand.mount();
  } else {
    showTab('orders');
  }
  await refresh();
  if (app.hex) {
    document.querySelector('.tab-btn[data-tab="orders"]').hidden = true;
    document.querySelector('.tab-btn[data-tab="command"]').hidden = false;
    document.querySelector('[data-map="reach"]').hidden = true;
    showTab('command');
    render();
  } else if (app.info.rules === 'bp' || app.info.rules === 'cd') {
    // A staff-rating or class dice game: no written orders, a command
    // panel instead.
    const Panel = app.info.rules === 'cd' ? CdPanel : CommandPanel;
    app.bp = new Panel($('bp-panel'), { api: app.api, refresh, banner: panelBanner, name, select, redraw: () => renderMap() });
    document.querySelector('.tab-btn[data-tab="orders"]').hidden = true;
    document.querySelector('.tab-btn[data-tab="command"]').hidden = false;
    showTab('command');
    render();
  } else if (!isUmpire() && app.board && !can('write')) showTab('army');
  // The seat's events, a page at a time; then the stream from the last.
  let last = 0;
  try {
    await app.api.allEvents(0, (events) => { logEvents(events); last = events[events.length - 1].seq; });
  } catch (err) {
    banner(sentence(err));
  }
  app.api.stream(last, {
    onEvent: (e) => { logEvents([e]); refreshSoon(); },
    onSeeds: () => refreshSoon(),
    onView: () => refreshSoon(),
    onReset: (version) => { app.log.drop(version); refreshSoon(); },
    onState: (s) => { connection(s); if (s === 'live') refreshSoon(); },
    onFatal: (err) => banner(sentence(err)),
  });
}

start();
