// The end of a game on the game page: once the board says the game is
// over, the turn bar says so, and a panel at the top of the side panel
// gives the result the scenario defines (its words and each side's
// points), or else the after-action report's summary, or else the words
// of the game's last event; with links to the replay, the report and (for
// the umpire) the export. Everything in it comes from the server.

import { h, fill, cap } from './dom.js';
import { sentence } from './api.js';

/** What was fetched for each game: one fetch per game, however often the page redraws. */
const fetched = new Map();

/**
 * Shows the end of the game: call it whenever the page draws a board of
 * a game that is over. It changes nothing before the end.
 * @param {{api: any, info: any, sideName: (id: string) => string}} ctx
 *   the page's API client, the game's info, and a side's name
 */
export function showEnd(ctx) {
  const { api, info } = ctx;
  if (!info || !info.over) return;
  style();
  overBar();
  let panel = /** @type {HTMLElement|null} */ (document.getElementById('end-panel'));
  if (!panel) {
    panel = h('section#end-panel.end-panel', { 'aria-label': 'The end of the game', role: 'region' });
    const host = document.querySelector('.panel');
    const tabs = host && host.querySelector(':scope > .tabs');
    if (!host) return;
    host.insertBefore(panel, tabs || host.firstChild);
  }
  let got = fetched.get(info.id);
  if (!got) {
    got = { done: false, result: null, summary: '', last: '', error: '' };
    fetched.set(info.id, got);
    const g = got;
    load(api, info).then((r) => Object.assign(g, r)).catch((err) => { g.error = sentence(err); })
      .finally(() => { g.done = true; draw(panel, ctx, g); });
  }
  draw(panel, ctx, got);
}

/**
 * The result (GET /replay gives it once the game is over), else the
 * report's summary, else the words of the seat's last event.
 * @param {any} api @param {any} info
 */
async function load(api, info) {
  const out = { result: null, summary: '', last: '' };
  const idx = await api.get(api.path(`/replay?since=${Math.max(0, (info.version || 0) - 8)}`));
  out.result = idx.result || null;
  const over = (idx.events || []).filter((e) => e.type === 'game-over').pop();
  out.last = over ? over.text : '';
  if (!out.result) {
    try {
      const rep = await api.get(api.path('/report'));
      if (rep && typeof rep.summary === 'string') out.summary = rep.summary;
    } catch {
      // No report to be had: the last event's words stand in for it.
    }
  }
  return out;
}

/** @param {HTMLElement} panel @param {any} ctx @param {any} got */
function draw(panel, ctx, got) {
  const { api, info, sideName } = ctx;
  const game = encodeURIComponent(info.id);
  const body = [];
  const r = got.result;
  if (r) {
    const winner = r.winner ? `${sideName(r.winner)} won.` : '';
    body.push(h('p.end-result', { text: [winner, r.text].filter(Boolean).join(' ') }));
    const pts = Object.entries(r.points || {});
    if (pts.length) body.push(h('ul.end-points', { 'aria-label': 'Points' }, ...pts.map(([side, n]) => h('li', null, h('b', { text: sideName(side) }), ` ${n} points`))));
  } else if (got.summary) {
    body.push(h('p.end-summary', { text: got.summary }));
  } else if (got.last) {
    body.push(h('p.end-summary', { text: cap(got.last) }));
  } else if (got.error) {
    body.push(h('p.end-summary.muted', { text: got.error }));
  } else if (!got.done) {
    body.push(h('p.end-summary.muted', { text: 'Finding the result…' }));
  }
  const links = [
    h('a#end-replay.btn.primary', { href: `/replay?game=${game}` }, 'Replay the game'),
    h('a#end-report.btn', { href: `/report?game=${game}` }, 'After-action report'),
  ];
  if (info.seat && info.seat.role === 'umpire') {
    const save = h('a#end-export-file.btn', { hidden: true }, 'Save the file');
    const exp = h('button#end-export.btn', { type: 'button' }, 'Export the game');
    exp.addEventListener('click', async () => {
      exp.disabled = true;
      try {
        const blob = await api.exportBlob(false);
        save.href = URL.createObjectURL(blob);
        save.download = `orderly-${info.id}-final.json`;
        save.hidden = false;
        save.click();
      } catch (err) {
        exp.title = sentence(err);
      } finally {
        exp.disabled = false;
      }
    });
    links.push(exp, save);
  } else {
    links.push(h('span.muted.small', { text: 'The umpire can export the game to share it.' }));
  }
  fill(panel, h('h3', { text: 'Game over' }), ...body, h('div.end-links', null, ...links));
}

/** The turn bar says "Game over" in place of its phase and step. */
function overBar() {
  const where = document.querySelector('.turn-info');
  if (!where || where.querySelector('.game-over')) return;
  for (const id of ['phase', 'step']) {
    const el = document.getElementById(id);
    const span = el && el.parentElement;
    if (span && span !== where) {
      span.hidden = true;
      const sep = span.previousElementSibling;
      if (sep && sep.classList.contains('sep')) /** @type {HTMLElement} */ (sep).hidden = true;
    }
  }
  where.append(h('span.sep', { 'aria-hidden': 'true' }), h('span.game-over', { text: 'Game over' }));
}

/** The end panel's look is in replay.css, which the game page loads the first time. */
function style() {
  if (document.querySelector('link[href="/css/replay.css"]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/css/replay.css' }));
}
