// The host's list of the games on this server ("Your games", issue 35):
// filled in by showGames once the page knows it holds the host token.
// Each game offers new join links for its seats (shown once), its export
// as a file, and its deletion after a confirmation that names it. The
// list is the server's (GET /api/host/games) and is read again after
// every change.

import { h, fill, copyText } from './dom.js';
import { sentence } from './api.js';

/**
 * The path of a game under the host's routes, plus rest.
 * @param {string} id @param {string} [rest]
 */
const hostPath = (id, rest = '') => `/api/host/games/${encodeURIComponent(id)}${rest}`;

/**
 * Shows the games of this server in the section #games.
 * @param {import('./api.js').Api} api the page's client, with the host token
 * @param {HTMLElement} section
 */
export async function showGames(api, section) {
  const list = h('ul.games-list');
  const links = h('div.games-new', { hidden: true });
  const status = h('p.games-status.error', { role: 'alert', hidden: true });
  fill(section,
    h('h2', { text: 'Your games' }),
    h('p.muted.small', { text: 'Every game on this server, the last played first. New links replace a seat\u2019s join link (the old one stops working); export saves a game as a file that orderly verify checks and orderly import or this page can load again.' }),
    status, links, list);
  section.hidden = false;

  /** Shows a sentence, or none. @param {string} msg */
  const say = (msg) => { status.textContent = msg; status.hidden = !msg; };

  /** Reads the list again and draws it. */
  async function refresh() {
    try {
      const games = await api.get('/api/host/games');
      say('');
      if (!games.length) {
        fill(list, h('li.muted', { text: 'No games yet: make one below.' }));
        return;
      }
      fill(list, ...games.map(row));
    } catch (err) {
      say(sentence(err));
    }
  }

  /**
   * One game of the list.
   * @param {any} g a HostGame
   */
  function row(g) {
    const more = h('div.game-more', { hidden: true });
    const connected = g.seats.filter((s) => s.connected).length;
    const turn = g.turn > 0 ? `turn ${g.turn}, ${g.phase}` : 'not begun';
    const played = new Date(g.played);
    const li = h('li.game', { dataset: { game: g.id } },
      h('div.game-text', null,
        h('div.game-title', null, g.title, g.demo ? h('span.chip', { text: 'demo' }) : null),
        h('div.muted.small', { text: `${g.id} \u00b7 ${g.rules.toUpperCase()} rules \u00b7 ${turn} \u00b7 last played ${played.toLocaleString()}` }),
        h('div.small.game-seats', null, `${connected} of ${g.seats.length} seats connected: `,
          ...g.seats.map((s) => h(`span.seat${s.connected ? '.on' : ''}`, { dataset: { name: s.name }, title: s.connected ? 'a page holds this seat open now' : 'no page holds this seat now', text: s.label })))),
      h('div.game-actions', null,
        h('button.btn.small', { type: 'button', dataset: { act: 'links' }, text: 'New links', on: { click: () => askLinks(g, more) } }),
        h('button.btn.small', { type: 'button', dataset: { act: 'export' }, text: 'Export', on: { click: (ev) => exportGame(g, /** @type {HTMLButtonElement} */ (ev.currentTarget)) } }),
        h('button.btn.small.danger', { type: 'button', dataset: { act: 'delete' }, text: 'Delete', on: { click: () => askDelete(g, more) } })),
      more);
    return li;
  }

  /**
   * Asks which seats get new links.
   * @param {any} g @param {HTMLElement} more
   */
  function askLinks(g, more) {
    const boxes = g.seats.map((s) => h('input', { type: 'checkbox', checked: true, value: s.name }));
    const make = h('button.btn.small.primary', { type: 'button', dataset: { act: 'reissue' }, text: 'Make new links' });
    make.addEventListener('click', async () => {
      const seats = g.seats.filter((_, i) => /** @type {HTMLInputElement} */ (boxes[i]).checked).map((s) => s.name);
      if (!seats.length) { say('Tick the seats that get new links.'); return; }
      make.disabled = true;
      try {
        const made = await api.post(hostPath(g.id, '/reissue'), { seats: seats.length === g.seats.length ? [] : seats });
        showLinks(g, made);
        await refresh();
      } catch (err) {
        say(sentence(err));
        make.disabled = false;
      }
    });
    fill(more,
      h('p.small', { text: 'The seats ticked get new join links; their old links stop working at once.' }),
      h('div.game-pick', null, ...g.seats.map((s, i) => h('label.check', null, boxes[i], ` ${s.label}`))),
      h('div.game-confirm', null, make, h('button.btn.small', { type: 'button', text: 'Cancel', on: { click: () => { more.hidden = true; } } })));
    more.hidden = false;
  }

  /**
   * Shows a game's new links, once, above the list.
   * @param {any} g @param {{role:string, side?:string, formation?:string, label:string, name:string, token:string}[]} made
   */
  function showLinks(g, made) {
    fill(links,
      h('h3', { text: `New links for ${g.title}` }),
      h('p.warning', null, h('strong', { text: 'These links are shown only once.' }), ' Copy each one now and give it to its player; the old links no longer work.'),
      h('ul.links', null, ...made.map((seat) => {
        const url = `${location.origin}/play#${seat.token}`;
        const copy = h('button.btn.small', { type: 'button', text: 'Copy' });
        copy.addEventListener('click', () => copyText(url, copy));
        return h('li', { dataset: { role: seat.role, name: seat.name } },
          h('span.who', null, seat.label),
          h('a.join', { href: url, target: '_blank', rel: 'noopener', dataset: { role: seat.role, name: seat.name }, text: url }),
          copy);
      })),
      h('button.btn.small', { type: 'button', text: 'Done', on: { click: () => { links.hidden = true; links.replaceChildren(); } } }));
    links.hidden = false;
  }

  /**
   * Downloads a game's export as a JSON file.
   * @param {any} g @param {HTMLButtonElement} btn
   */
  async function exportGame(g, btn) {
    btn.disabled = true;
    try {
      const doc = await api.get(hostPath(g.id, '/export'));
      const blob = new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' });
      let a = /** @type {HTMLAnchorElement|null} */ (section.querySelector('a.games-export'));
      if (!a) {
        a = /** @type {HTMLAnchorElement} */ (h('a.games-export', { hidden: true }));
        section.append(a);
      }
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(blob);
      a.download = `orderly-${g.id}-turn${g.turn}.json`;
      a.click();
      say('');
    } catch (err) {
      say(sentence(err));
    } finally {
      btn.disabled = false;
    }
  }

  /**
   * Asks to confirm a delete, naming the game.
   * @param {any} g @param {HTMLElement} more
   */
  function askDelete(g, more) {
    const yes = h('button.btn.small.danger', { type: 'button', dataset: { act: 'confirm-delete' }, text: 'Delete for good' });
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      try {
        await api.request('DELETE', hostPath(g.id), { confirm: g.id });
        await refresh();
      } catch (err) {
        say(sentence(err));
        yes.disabled = false;
      }
    });
    const no = h('button.btn.small', { type: 'button', text: 'Keep it', on: { click: () => { more.hidden = true; } } });
    fill(more,
      h('p.warning', null, 'Delete ', h('strong', { text: g.title }), ` (${g.id}) with its log, its seats and its dice seeds? Its join links stop working and it cannot be undone; export it first to keep a copy.`),
      h('div.game-confirm', null, yes, no));
    more.hidden = false;
    no.focus();
  }

  await refresh();
}
