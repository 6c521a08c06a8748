// The game page (/play): one seat's view of a game. Reads the seat's token
// from the join link's #fragment (then keeps it in sessionStorage and drops
// it from the address bar), draws the board, follows the event stream, and
// sends the seat's commands.

import { h, fill, pt, squareOf, debounce, cap, copyText } from './dom.js';
import { Api, ApiError, sentence } from './api.js';
import { EventLog } from './log.js';
import { showDiceMode, diceFacts } from './tabledice.js';
import { UmpireHand } from './umpire.js';
import { showEnd } from './end.js';
import { renderAdvice } from './advice.js';
import { waitingLine, endQuestion, endedNotice } from './turnbar.js';

const TOKEN_KEY = 'orderly.seat';

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
  /** The rule set's page module (rulesModule). @type {any} */ rules: null,
  /** The map view the module names. @type {any} */ map: null,
  /** The module's order form, for a rule set that writes orders in the Orders tab. @type {any} */ orders: null,
  /** @type {EventLog|null} */ log: null,
  /** The module's command panel, in the Command tab. @type {any} */ panel: null,
  /** The umpire's hand: acting for a side, place, sides' views. @type {UmpireHand|null} */ hand: null,
  /** The fetch of the board on its way, if one is. @type {Promise<void>|null} */ refreshing: null,
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

/**
 * Fetches the board and draws it if it changed. Called while a fetch is
 * on its way, it fetches once more when that one is done; either way the
 * promise it returns settles when the page shows a board fetched after
 * the call.
 * @returns {Promise<void>}
 */
function refresh() {
  if (app.refreshing) { app.again = true; return app.refreshing; }
  app.refreshing = (async () => {
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
      app.refreshing = null;
    }
  })();
  return app.refreshing;
}

const refreshSoon = debounce(refresh, 120);

/**
 * @param {any[]} events
 * @param {boolean} [live] they come from the stream, as they happen
 */
function logEvents(events, live = false) {
  app.log.add(events, { colour, side: sideName });
  if (!live) return;
  // Every seat is told, as it happens, that the umpire ended a step.
  const ended = events.filter((e) => e.type === 'step-ended').pop();
  if (ended && !isUmpire()) notice(endedNotice(ended, sideName));
}

/**
 * A notice in the turn bar, which stays until dismissed or replaced.
 * @param {string} text
 */
function notice(text) {
  $('turn-notice-text').textContent = text;
  $('turn-notice').hidden = !text;
}

// ---- rendering -------------------------------------------------------------

/**
 * Where the seat's generals stand on a table, for the printed sheet: the
 * position and its square of the entry grid. The rule set's module may
 * leave out a general (present) and name what one who commands no
 * formation commands (role; the army if not).
 * @param {{present?:(g:any)=>boolean, role?:(g:any)=>string}} [o]
 * @returns {import('./sheet.js').Where[]}
 */
function whereGenerals(o = {}) {
  const st = app.board.state;
  const f = app.board.field;
  const kinds = Object.fromEntries((st.formations || []).map((x) => [x.id, x.kind]));
  const present = o.present || (() => true);
  const role = o.role || (() => 'army');
  return (st.generals || []).filter((g) => g['on-table'] && present(g) && mine(g.side)).map((g) => ({
    who: g.name || g.id, side: g.side, at: pt(g.at), square: squareOf(f, g.at),
    role: g.commands ? `${name(g.commands)}${kinds[g.commands] ? ` (${kinds[g.commands]})` : ''}` : role(g),
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

/**
 * The page's view of the board for the rule set's module: what it shows,
 * the names, the offers, and the commands it may send.
 */
function context() {
  const b = app.board;
  return {
    board: b, state: b.state, info: app.info, seat: seat(), words: words(),
    colour, name, nameGeneral, sideName, etaOf, offers, can, mine, isUmpire, act, select, whereLeaders,
    writeOrder: (id) => { showTab('orders'); if (app.orders) app.orders.preselect(id); },
    oobModel: () => ({ state: b.state, seat: seat(), info: app.info, words: words(), name, colour, etaOf, onSelectGeneral: (id) => select({ kind: 'general', id }) }),
    sheetModel: (o) => ({ info: app.info, state: b.state, field: b.field, where: whereGenerals(o), name, nameGeneral, sideName }),
  };
}

function render() {
  // A message is about the step it was shown in: the next step clears it.
  if (!$('banner').hidden && app.bannerStep && app.bannerStep !== stepKey()) banner('');
  const step = `${app.info.turn}/${app.info.step}/${app.info.over}`;
  if (app.step && app.step !== step && !isUmpire() && app.orders && !app.panel) {
    // At a new step, show the tab it is about: orders to write, or the army.
    if (app.tab === 'orders' && !can('write')) showTab('army');
    else if (app.tab === 'army' && can('write')) showTab('orders');
  }
  app.step = step;
  renderControls();
  if (app.info.over) showEnd({ api: app.api, info: app.info, sideName }); // the result and the links, at the end
  if (app.panel) app.panel.update(app.board, app.selected);
  else if (app.orders) app.orders.update(); // first: whether the map may pick an objective depends on it
  renderMap();
  const c = context();
  app.rules.oob($('oob'), c);
  app.rules.sheet($('sheet-body'), c);
  renderSelection();
  renderAdvice(app.board, { name, select });
  renderGame();
  renderHint();
  markPanel();
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
  // Who plays now, who is ready, and who waits: only a side the step
  // waits for is "playing" (the server's waiting).
  const waiting = new Set(info.waiting || []);
  const stateOf = (id) => !info.player || info.over ? '' : ready.has(id) ? '✓ ready' : waiting.has(id) ? 'playing' : 'waits';
  fill($('ready-list'), ...(info.sides || []).map((sd) => h(`li.c-${colour(sd.id)}${ready.has(sd.id) ? '.is-ready' : ''}`,
    { dataset: { side: sd.id }, title: info.player ? (ready.has(sd.id) ? `${sd.name} is ready` : waiting.has(sd.id) ? `waiting for ${sd.name}` : `${sd.name} does not act in this step`) : 'the step runs by itself' },
    h('span.swatch'), h('span', { text: sd.name }), h('span.state', { text: stateOf(sd.id) }))));
  renderWaiting();
  const rb = $('ready');
  const eb = $('end-step');
  const tb = $('take-back');
  // Take back: offered only when the server says it will be accepted
  // (the game's undo), for the seat's own side, or the side the umpire
  // acts for.
  const undo = info.over ? '' : info.undo || '';
  const forSide = isUmpire() ? (app.board && app.board.acting) || '' : seat().role === 'side' ? seat().side : '';
  tb.hidden = !forSide || !!info.over;
  tb.disabled = !undo;
  tb.textContent = undo ? `Take back: ${undo}` : 'Take back';
  tb.title = undo ? `Take back ${undo}` : 'Nothing to take back: a command may be taken back before Ready, if it drew no dice and revealed nothing';
  if (isUmpire()) {
    rb.hidden = true;
    eb.hidden = !!info.over;
    eb.disabled = !info.player || info.over;
    if (eb.disabled) $('end-confirm').hidden = true;
  } else {
    // At the end of the game the end panel says what comes next.
    rb.hidden = !!info.over;
    eb.hidden = true;
    const done = ready.has(seat().side);
    if (done && info.player && !info.over) {
      // Ready may be withdrawn until the step ends.
      rb.disabled = !verbs().includes('unready');
      rb.textContent = 'Not ready';
      rb.dataset.verb = 'unready';
      rb.title = `You are ready; press to withdraw it and go on with the ${info.step} step`;
    } else {
      rb.disabled = !info.player || info.over || !verbs().includes('ready');
      rb.textContent = 'Ready';
      rb.dataset.verb = 'ready';
      rb.title = info.why || `Done with the ${info.step} step`;
    }
  }
}

/** The waiting line: whom the game waits for, since when, and why this seat cannot act. */
function renderWaiting() {
  const info = app.info;
  if (!info) return;
  const line = waitingLine(info, sideName, Date.now());
  $('waiting-for').textContent = line;
  $('why').textContent = info.over ? '' : info.why || '';
  $('waiting').hidden = !line && !$('why').textContent;
}

/**
 * The umpire acts for side now ('' for himself): where the rule set
 * writes orders in the Orders tab, he writes the side's, so the tab shows
 * while he acts; the board is asked for again with that side's offers.
 * @param {string} side
 */
function actingChanged(side) {
  const btn = document.querySelector('.tab-btn[data-tab="orders"]');
  const orders = !!side && !!app.orders && !app.panel;
  btn.hidden = !orders;
  if (orders) showTab('orders');
  else if (app.tab === 'orders') showTab('log');
  refresh();
}

/** Whether a tap on the map is the umpire's choice of a place (umpire.js). */
function umpirePicks() { return !!(app.hand && app.hand.picking()); }

function renderMap() {
  const b = app.board;
  const image = (b.space || {}).image;
  if (image && (!app.backdrop || app.backdrop.url !== image.url)) {
    // The backdrop is fetched once with the seat's token, then drawn.
    const bd = app.backdrop = { url: image.url, href: '' };
    app.api.blobURL(image.url).then((href) => { bd.href = href; if (app.backdrop === bd) renderMap(); }).catch(() => {});
  }
  const backdrop = image && app.backdrop ? app.backdrop.href : '';
  const edge = (b.space || {}).edge;
  $('map').setAttribute('aria-label', `${app.rules.hex ? 'The hex map' : 'The table, in inches'}; ${edge ? `your base edge (${edge}) is at the bottom` : 'north is at the top'}`);
  const ticked = tickedPieces();
  if (app.rules.hex) {
    app.map.render({
      space: b.space, backdrop, state: b.state, extra: b.extra || {}, names: b.names || {}, seat: seat(), colour, name: nameGeneral,
      selected: app.selected, picking: app.panel.picking() || umpirePicks(), overlay: app.panel.overlay, showRanges: app.showRanges, ticked,
    });
    return;
  }
  app.map.render({
    field: b.field, image, backdrop, edge, state: b.state, names: b.names, etas: etas(), reach: b.reach || 0, reaching: b.reaching || [], words: words(),
    seat: seat(), sides: app.info.sides, colour, name: nameGeneral, extra: b.extra || null,
    canMove: can('move'), offers, moving: offersMove(), ticked, canPick: umpirePicks() || (app.panel ? !!app.panel.picking : !!app.orders && app.orders.enabled && app.tab === 'orders'),
    objective: app.objective, selected: app.selected,
    showRanges: app.showRanges, showReach: app.showReach, pending: app.pending,
  });
}

/**
 * Whether the board offers move for any piece: then only those pieces
 * may be dragged (a board whose rule set lists no moves among its offers
 * leaves the map to the step's verbs).
 */
function offersMove() {
  const o = (app.board && app.board.offers) || {};
  return Object.values(o).some((vs) => vs.includes('move'));
}

/**
 * The pieces ticked in the panel (its checkboxes that name a unit or a
 * general), highlighted on the map.
 * @returns {Set<string>}
 */
function tickedPieces() {
  const out = new Set();
  for (const el of document.querySelectorAll('.panel input[type="checkbox"]:checked')) {
    const id = el.dataset.unit || el.dataset.general;
    if (id) out.add(id);
  }
  return out;
}

/** The panel's rows of the piece selected on the map are marked (the map's selection, shown in the panel). */
function markPanel() {
  const id = app.selected ? app.selected.id : '';
  for (const el of document.querySelectorAll('.panel [data-unit], .panel [data-general]')) {
    const row = el.closest('label, li, tr') || el;
    const on = !!id && (el.dataset.unit === id || el.dataset.general === id);
    row.classList.toggle('on-map', on);
  }
}

function renderHint() {
  const hint = $('map-hint');
  let t = '';
  if (app.rules.hex) {
    const pick = app.panel.pick;
    t = pick === 'sight' ? 'Tap two hexes to see whether one sees the other.'
      : pick ? `Tap the hex (${pick}).` : app.selected ? '' : 'Tap a counter to select it; the panel offers what it may do.';
    hint.textContent = t;
    hint.hidden = !t; // once a piece is selected the hint gives way to the map
    return;
  }
  const moving = offersMove();
  if (app.orders && app.orders.enabled && app.tab === 'orders') t = 'Tap the map to place the order’s objective.';
  else if (can('move') && !isUmpire()) t = moving ? 'Drag your pieces the rules let move now; tap one for its details.' : 'Drag your units and generals to move them; tap one for its details.';
  else if (isUmpire() && can('move')) t = 'Drag a piece to move it; where the rules refuse the move, you may allow it or place the piece there with a reason for the log. Tap one for its details.';
  else if (isUmpire()) t = 'Tap a piece for its details; its card offers Place… to put it anywhere, with a reason for the log.';
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

/**
 * @param {{kind:string,id:string}|null} ref
 * @param {boolean} [onMap] chosen on the map itself (else in a panel)
 */
function select(ref, onMap = false) {
  app.selected = ref;
  renderSelection();
  renderMap();
  // One chosen in a panel may be out of the map's view: shown there.
  if (ref && !onMap && app.map && app.map.reveal) app.map.reveal(ref);
  if (app.panel && app.board) {
    app.panel.update(app.board, app.selected);
    if (app.rules.hex) renderHint();
  }
  markPanel();
}

function renderSelection() {
  const box = $('selection');
  if (app.hand) app.hand.selectionChanged(app.selected);
  const cards = app.rules.cards;
  if (!cards) { box.hidden = true; fill(box); return; } // the command panel shows the selected piece
  const ref = app.selected;
  const st = app.board && app.board.state;
  if (!ref || !st) { box.hidden = true; fill(box); return; }
  const list = { unit: st.units, general: st.generals, messenger: st.messengers }[ref.kind] || [];
  const piece = list.find((x) => x.id === ref.id);
  const body = piece && cards[ref.kind] ? cards[ref.kind](piece, context()) : null;
  if (!body) { app.selected = null; box.hidden = true; fill(box); return; }
  fill(box, h('button.close', { type: 'button', 'aria-label': 'Close', text: '×', on: { click: () => select(null) } }), body, ...(app.hand ? app.hand.card(ref) : []));
  box.hidden = false;
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
    await redrawFromServer(ref);
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
    await redrawFromServer(ref);
    return false;
  }
}

/**
 * After the answer to a move, accepted or refused: the piece is drawn
 * where the server's board puts it, never where it was dropped. The
 * board is fetched after the answer (refresh waits for one on its way to
 * end, then fetches again) and the map drawn from it even when it did
 * not change (one fetched while the move was on its way was drawn with
 * the piece still where it was dropped).
 * @param {{kind:string,id:string}} ref
 */
async function redrawFromServer(ref) {
  await refresh();
  delete app.pending[ref.id];
  if (app.board) renderMap();
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
    const verb = btn.dataset.verb === 'unready' ? 'unready' : 'ready';
    if (!(await act({ [verb]: true }))) btn.disabled = false;
  });
  $('take-back').addEventListener('click', async (ev) => {
    const btn = ev.currentTarget;
    btn.disabled = true;
    const side = isUmpire() ? app.board.acting : seat().side;
    if (!(await act({ side, 'take-back': true }))) btn.disabled = false;
  });
  // The umpire's End step asks first: what it does, and who is not ready.
  $('end-step').addEventListener('click', () => {
    $('end-question').textContent = endQuestion(app.info, sideName);
    $('end-confirm').hidden = false;
    $('end-yes').focus();
  });
  $('end-no').addEventListener('click', () => { $('end-confirm').hidden = true; $('end-step').focus(); });
  $('end-yes').addEventListener('click', async () => {
    $('end-confirm').hidden = true;
    const eb = $('end-step');
    eb.disabled = true;
    if (!(await act({ end: true }, `The ${app.info.step} step was ended; every seat is told.`))) eb.disabled = false;
  });
  $('turn-notice-close').addEventListener('click', () => notice(''));
  // The minutes waited go on counting.
  setInterval(renderWaiting, 30000);
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

// ---- the rule set's page module ----------------------------------------------

/**
 * The page module of a rule set is js/rules/ID.js, ID its rules id as the
 * board names it: the page keeps no list of rule sets, so a rule set (one
 * a test registers included) adds its module beside the others and
 * nothing else on this side of the wire.
 *
 * A module exports one object, a RulesModule:
 *   hex      whether the game is played on a hex map (the hex map's views
 *            and a command panel) or on a table;
 *   MapView  the class that draws the map (map.js, footprint.js,
 *            hexmap.js, or the rule set's own);
 *   Panel    the command panel shown in the Command tab, or none: then the
 *            seat writes orders in the Orders tab with the form orders()
 *            makes;
 *   orders   (opts) => an order form, for a rule set without a Panel;
 *   oob      (el, ctx) draws the order of battle into el;
 *   sheet    (el, ctx) draws the printed order sheet into el;
 *   cards    the card of a selected unit, general or messenger on a
 *            table: {unit, general, messenger}, each (piece, ctx) =>
 *            element or null;
 *   umpireCard  (optional) (piece, u) => {acts, below, place}: what the
 *            umpire's card of a selected piece holds beside Place…, its
 *            buttons (acts) and what goes under them (below), and
 *            place: false where Place… is not offered; u is the card's
 *            context (umpire.js, cardContext).
 * ctx is the page's view of the board (context()): the board, the seat,
 * the names, the offers and the act() that sends a command.
 */
const RULES_ID = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * The module of the rule set with this id, or null for an id that is not
 * one or whose module the server does not have.
 * @param {string} id
 * @returns {Promise<any>}
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
  try {
    app.info = await app.api.seat();
  } catch (err) {
    connection('stopped');
    banner(err instanceof ApiError && err.status === 401 ? 'This join link is not a seat of any game on this server.' : sentence(err));
    return;
  }
  app.api.game = app.info.id;
  app.rules = await rulesModule(app.info.rules);
  if (!app.rules) {
    connection('stopped');
    banner(`This page cannot show a game of the rule set ${app.info.rules}; the server knows it, this page does not.`);
    return;
  }
  if (app.rules.orders) {
    app.orders = app.rules.orders({
      api: app.api,
      ctx: () => app.board && context(),
      onObjective: (p) => { app.objective = p; if (app.board) renderMap(); },
      onSent: () => refresh(),
      banner,
    });
  }
  if (app.rules.hex) {
    // A hex game: the hex map, and a command panel in place of the order form.
    app.panel = new app.rules.Panel($('command-panel'), { api: app.api, refresh, banner: panelBanner, name: nameGeneral, select, redraw: () => { renderMap(); renderHint(); } });
    app.map = new app.rules.MapView($('map'), { onPick: (p) => { if (!(app.hand && app.hand.onPick(p))) app.panel.onPick(p); }, onSelect: (ref) => select(ref, true) });
  } else {
    app.map = new app.rules.MapView($('map'), {
      onPick: (p) => {
        if (app.hand && app.hand.onPick(p)) return;
        if (app.panel && app.panel.picking) app.panel.onPick(p);
        else if (app.orders) app.orders.setObjective(p);
      },
      onSelect: (ref) => select(ref, true),
      onMove: movePiece,
    });
  }
  // A piece ticked or unticked in the panel is highlighted on the map.
  document.querySelector('.panel').addEventListener('change', (ev) => {
    const el = /** @type {HTMLElement} */ (ev.target);
    if (app.board && el.matches('input[type="checkbox"][data-unit], input[type="checkbox"][data-general]')) renderMap();
  });
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
      rules: () => app.rules,
    });
    app.hand.mount();
  } else {
    showTab('orders');
  }
  await refresh();
  if (app.rules.hex) {
    document.querySelector('.tab-btn[data-tab="orders"]').hidden = true;
    document.querySelector('.tab-btn[data-tab="command"]').hidden = false;
    document.querySelector('[data-map="reach"]').hidden = true;
    showTab('command');
    render();
  } else if (app.rules.Panel) {
    // No written orders: the rule set's command panel instead.
    app.panel = new app.rules.Panel($('command-panel'), { api: app.api, refresh, banner: panelBanner, name, select, redraw: () => renderMap() });
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
    onEvent: (e) => { logEvents([e], true); refreshSoon(); },
    onSeeds: () => refreshSoon(),
    onView: () => refreshSoon(),
    onReset: (version) => { app.log.drop(version); refreshSoon(); },
    onState: (s) => { connection(s); if (s === 'live') refreshSoon(); },
    onFatal: (err) => banner(sentence(err)),
  });
}

start();
