// The report page (/report?game=ID): a game's after-action report, as the
// server writes it (the same printable page as orderly report --format
// html), loaded with the seat's token and shown with a print button. The
// umpire may read it at any time, a side once the game is over; the
// server says so when it refuses.

const TOKEN_KEY = 'orderly.seat';

/** The seat's token: from the link's #fragment, else this tab's seat. */
function readToken() {
  const hash = location.hash.replace(/^#/, '');
  if (hash) {
    try { sessionStorage.setItem(TOKEN_KEY, hash); } catch { /* private mode: memory only */ }
    history.replaceState(null, '', location.pathname + location.search);
    return hash;
  }
  try { return sessionStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}

/**
 * The server's one sentence for a refusal, or a sentence of our own.
 * @param {Response} res
 * @returns {Promise<string>}
 */
async function refusal(res) {
  try {
    const data = await res.json();
    if (data && data.error && data.error.message) return data.error.message;
  } catch { /* not JSON */ }
  return `The server answered ${res.status}.`;
}

async function start() {
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const main = /** @type {HTMLElement} */ (document.getElementById('report'));
  const print = /** @type {HTMLButtonElement} */ (document.getElementById('print'));
  print.addEventListener('click', () => window.print());
  const game = new URLSearchParams(location.search).get('game') || '';
  const token = readToken();
  if (!game || !token) {
    status.textContent = 'Open this page from a game: /report?game=ID, with your seat.';
    return;
  }
  let res;
  try {
    res = await fetch(`/api/games/${encodeURIComponent(game)}/report?format=html`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/html' }, cache: 'no-store', credentials: 'omit',
    });
  } catch {
    status.textContent = 'The server could not be reached; check the connection and reload.';
    return;
  }
  if (!res.ok) {
    status.textContent = await refusal(res);
    return;
  }
  // The server's page, escaped there, holds no script. Its inline styles
  // are this page's stylesheet (/css/report.css, the same CSS), which the
  // page's policy allows where it refuses inline ones: they are left out.
  const html = (await res.text()).replace(/<style>[\s\S]*?<\/style>/, '');
  const doc = new DOMParser().parseFromString(html, 'text/html');
  main.replaceChildren(...Array.from(doc.body.childNodes, (n) => document.importNode(n, true)));
  document.title = doc.title || document.title;
  status.textContent = '';
  print.disabled = false;
}

start();
