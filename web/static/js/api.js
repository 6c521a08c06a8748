// The API client: JSON requests with the seat's token in the Authorization
// header, and the game's server-sent events read with fetch (EventSource
// cannot send the header), reconnecting with backoff. A command whose
// roll is thrown at the table asks for its dice (tabledice.js) and is sent
// again with them.

import { withTableDice, pickDice } from './tabledice.js';

/**
 * An error the API answered with: a code, one sentence, maybe a rule, and
 * for a request that needs confirming (code "confirm") the details of what
 * it would do.
 */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status (0 when the server was not reached)
   * @param {string} code the API's error code, e.g. "rejected"
   * @param {string} message one sentence for people
   * @param {string} [rule] the SPEC ID of the rule behind a refusal, as the server names it
   * @param {string[]} [details] what a "confirm" error asks to be confirmed
   * @param {string} [override] the piece of a refused move the umpire may
   *   move all the same, giving a reason
   * @param {any} [need] for code "dice": the roll to be thrown at the
   *   table ({table, for, dice, sides, low, given, more, title, name})
   */
  constructor(status, code, message, rule, details, override, need) {
    super(message);
    this.status = status;
    this.code = code;
    this.rule = rule || '';
    this.override = typeof override === 'string' ? override : '';
    /** @type {string[]} */
    this.details = Array.isArray(details) ? details.filter((d) => typeof d === 'string') : [];
    this.need = need && typeof need === 'object' ? need : null;
  }

  /** The message with its rule, as shown to the player. */
  get text() {
    const m = this.message.replace(/\s+$/, '');
    if (this.rule && !m.includes(`(${this.rule})`)) return `${m} (${this.rule})`;
    return m;
  }
}

/**
 * Turns anything thrown into one sentence for the banner; never a stack.
 * @param {unknown} err
 * @returns {string}
 */
export function sentence(err) {
  if (err instanceof ApiError) return err.text;
  if (err && err.code === 'cancelled') return err.message; // the dice were not given
  if (err && err.name === 'AbortError') return 'The request was cancelled.';
  return 'The server could not be reached; check the connection and try again.';
}

/** A client of one seat's game. */
export class Api {
  /** @param {string} token the seat's token (never put in a URL) */
  constructor(token) {
    this.token = token;
    /** @type {string} */
    this.game = '';
    /** The side the umpire acts for ('' for himself): sent with his commands. */
    this.actAs = '';
    /** Asks for the faces of a roll thrown at the table. */
    this.pickDice = pickDice;
    /** @type {{cmd:any, err:ApiError}|null} the last move refused, for the umpire to place the piece all the same */
    this.refused = null;
  }

  /**
   * Sends a request and decodes the JSON answer.
   * @param {string} method
   * @param {string} path an API path, e.g. "/api/seat"
   * @param {any} [body] sent as JSON; a request other than GET always sends
   *   one ({} when none is given): the server refuses a POST without it
   * @returns {Promise<any>}
   */
  async request(method, path, body) {
    /** @type {Record<string,string>} */
    const headers = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    /** @type {RequestInit} */
    const init = { method, headers, cache: 'no-store', credentials: 'omit' };
    if (body === undefined && method !== 'GET' && method !== 'HEAD') body = {};
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch {
      throw new ApiError(0, 'network', 'The server could not be reached; check the connection and try again.');
    }
    let data = null;
    const text = await res.text();
    if (text) {
      try { data = JSON.parse(text); } catch { data = null; }
    }
    if (!res.ok) {
      const e = data && data.error;
      if (e && e.message) throw new ApiError(res.status, e.code || 'error', e.message, e.rule, e.details, e.override, e.need);
      throw new ApiError(res.status, 'http', `The server answered ${res.status} ${res.statusText || ''}`.trim() + '.');
    }
    return data;
  }

  /** @param {string} path */
  get(path) { return this.request('GET', path); }
  /**
   * A forecast (/odds) is asked for as the command it forecasts would be
   * given: for the side the umpire acts for, if he does. A refused
   * forecast of a move is remembered as a refused move is (noteRefused).
   * @param {string} path @param {any} body
   */
  async post(path, body) {
    const odds = /\/odds$/.test(path);
    if (odds && this.actAs && body && !('side' in body) && ![].concat(body.move || []).some((m) => m && m.override)) {
      body = { ...body, side: this.actAs };
    }
    try {
      return await this.request('POST', path, body);
    } catch (err) {
      if (odds) this.noteRefused(body, err);
      throw err;
    }
  }

  /** The path of this game's API, plus rest. @param {string} rest */
  path(rest) { return `/api/games/${encodeURIComponent(this.game)}${rest}`; }

  /** Info of the token's game, with the seat. */
  seat() { return this.get('/api/seat'); }
  /** The seat's board; the umpire's, with a side's offers while he acts for it. */
  board() { return this.get(this.path(this.actAs ? `/board?act=${encodeURIComponent(this.actAs)}` : '/board')); }
  /**
   * One page of the seat's events after its event number since (at most
   * the server's page; more says there are others after it).
   * @param {number} since
   * @returns {Promise<{version:number, events:any[], more?:boolean}>}
   */
  events(since) { return this.get(this.path(`/events?since=${since}`)); }

  /**
   * Every event of the seat's after since, a page at a time, each page
   * asked from the last event's number; onPage sees each page as it comes.
   * Returns the number of the last event read (since, if none).
   * @param {number} since
   * @param {(events:any[]) => void} onPage
   * @returns {Promise<number>}
   */
  async allEvents(since, onPage) {
    let last = since;
    for (;;) {
      const page = await this.events(last);
      const evs = page.events || [];
      if (evs.length) {
        onPage(evs);
        last = evs[evs.length - 1].seq;
      }
      if (!page.more || !evs.length) return last;
    }
  }
  /**
   * Sends a command: for the umpire acting for a side, as that side (not
   * his end of a step, his place, nor a move he allows with a reason);
   * with the dice thrown at the table when the server asks for them.
   * Remembers a refused move (and clears it when a command goes through).
   * @param {object} command a command object with one verb key
   */
  async command(command) {
    /** @type {any} */
    const c = command;
    const own = 'end' in c || 'place' in c || 'side' in c || [].concat(c.move || []).some((m) => m && m.override);
    const cmd = this.actAs && !own ? { ...c, side: this.actAs } : c;
    try {
      const res = await withTableDice((x) => this.post(this.path('/commands'), x), cmd, this.pickDice);
      this.refused = null;
      return res;
    } catch (err) {
      this.noteRefused(cmd, err);
      throw err;
    }
  }

  /**
   * Keeps a refused move (or the forecast of one refused), with a piece
   * and where it was to go, so that the umpire may place it there all the
   * same.
   * @param {any} cmd @param {unknown} err
   */
  noteRefused(cmd, err) {
    const m = cmd && cmd.move;
    if (err instanceof ApiError && err.status === 422 && err.code !== 'dice' && m && !Array.isArray(m) && (m.unit || m.general) && m.to !== undefined) {
      this.refused = { cmd, err };
    }
  }
  /** @param {{for:string[], kind:string, to?:string}} write */
  odds(write) { return this.post(this.path('/odds'), { write }); }
  /**
   * Reveals the dice seed; before the end of the game the server asks for
   * confirm (an ApiError of code "confirm" whose details say what it would
   * expose).
   * @param {boolean} [confirm]
   */
  reveal(confirm) { return this.post(this.path('/reveal'), confirm ? { confirm: true } : {}); }
  seats() { return this.get(this.path('/seats')); }
  /**
   * Makes a new join link for a seat (named as the seat list names it);
   * its old token stops working.
   * @param {string} name
   * @returns {Promise<{name:string, role:string, side?:string, formation?:string, label:string, token:string}>}
   */
  reissue(name) { return this.post(this.path('/seats/reissue'), { seat: name }); }

  /**
   * Fetches the export as a Blob, for a download link.
   * @param {boolean} secrets whether to include unrevealed seeds' keys
   * @returns {Promise<Blob>}
   */
  /**
   * Fetches an image of the game with the seat's token (the backdrop,
   * GET /api/games/{id}/image) and returns a blob URL of it to draw.
   * @param {string} path
   * @returns {Promise<string>}
   */
  async blobURL(path) {
    const res = await fetch(path, { headers: { Authorization: `Bearer ${this.token}` }, credentials: 'omit' });
    if (!res.ok) throw new ApiError(res.status, 'image', 'The backdrop image could not be fetched.');
    return URL.createObjectURL(await res.blob());
  }

  async exportBlob(secrets) {
    const doc = await this.get(this.path(`/export${secrets ? '?secrets=true' : ''}`));
    return new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' });
  }

  /**
   * Follows the game's event stream after the seat's event number since.
   * Calls onEvent for each event (numbered as the seat numbers them),
   * onSeeds when a seed is revealed, onView when the seat's view has
   * changed without an event it may see (fog of war), onReset when the
   * seat's events end at a number before the last it was sent or asked
   * from (events past it are not in the game: drop them and read the board
   * again), and onState with "live", "reconnecting" or "stopped".
   * Reconnects with backoff from the last event seen, with the token the
   * client has then. Returns a function that stops it.
   * @param {number} since
   * @param {{onEvent:(e:any)=>void, onSeeds:(s:any[])=>void,
   *          onView?:()=>void, onReset?:(version:number)=>void,
   *          onState:(state:string)=>void, onFatal:(err:ApiError)=>void}} on
   * @returns {() => void}
   */
  stream(since, on) {
    let last = since;
    let stopped = false;
    let ctrl = null;
    let delay = 500;
    let timer = 0;
    const parser = new SseParser((msg) => {
      if (msg.event === 'event') {
        const e = JSON.parse(msg.data);
        if (e.seq > last) last = e.seq;
        on.onEvent(e);
      } else if (msg.event === 'seeds') {
        on.onSeeds(JSON.parse(msg.data));
      } else if (msg.event === 'view' && on.onView) {
        on.onView();
      } else if (msg.event === 'reset') {
        // The seat's events end at version: any the page holds past it
        // are not in the game. The stream goes on from there.
        const v = Number(JSON.parse(msg.data).version);
        if (Number.isInteger(v) && v >= 0) {
          last = v;
          if (on.onReset) on.onReset(v);
        }
      }
    });
    const connect = async () => {
      if (stopped) return;
      ctrl = new AbortController();
      parser.reset();
      try {
        const res = await fetch(this.path(`/stream?since=${last}`), {
          headers: { Authorization: `Bearer ${this.token}`, Accept: 'text/event-stream' },
          cache: 'no-store', credentials: 'omit', signal: ctrl.signal,
        });
        if (res.status === 401 || res.status === 403 || res.status === 404) {
          let msg = 'This seat cannot follow the game.';
          try { msg = (await res.json()).error.message; } catch { /* keep the default */ }
          stopped = true;
          on.onState('stopped');
          on.onFatal(new ApiError(res.status, 'stream', msg));
          return;
        }
        if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
        on.onState('live');
        delay = 500;
        const reader = res.body.getReader();
        const dec = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(dec.decode(value, { stream: true }));
        }
      } catch {
        // dropped: fall through to reconnect
      }
      if (stopped) return;
      on.onState('reconnecting');
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 15000);
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      if (ctrl) ctrl.abort();
    };
  }
}

/**
 * A parser of the text/event-stream format: feed it text as it arrives; it
 * calls back with {event, data, id} for each complete message. Comments
 * (lines starting with ":") are skipped.
 */
export class SseParser {
  /** @param {(msg:{event:string, data:string, id:string})=>void} cb */
  constructor(cb) {
    this.cb = cb;
    this.reset();
  }

  reset() {
    this.buf = '';
    this.event = '';
    this.data = [];
    this.id = '';
  }

  /** @param {string} chunk */
  push(chunk) {
    this.buf += chunk;
    let i;
    while ((i = this.buf.search(/\r\n|\n|\r/)) >= 0) {
      const line = this.buf.slice(0, i);
      const nl = this.buf[i] === '\r' && this.buf[i + 1] === '\n' ? 2 : 1;
      if (this.buf[i] === '\r' && i + 1 === this.buf.length) break; // wait: it may be \r\n
      this.buf = this.buf.slice(i + nl);
      this.line(line);
    }
  }

  /** @param {string} line */
  line(line) {
    if (line === '') {
      if (this.data.length) this.cb({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const c = line.indexOf(':');
    const field = c < 0 ? line : line.slice(0, c);
    let value = c < 0 ? '' : line.slice(c + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}
