// The umpire's hand on the game page (issue 15): acting for a side (his
// commands go as that side's, and the rules check them as theirs),
// placing a piece where he says whatever the rules say of the move (the
// engine's place, with his reason in the log), a general's fall (a
// general removed, killed or captured, and replaced, where the rule set
// offers it), and, under fog of
// war, each side's view of the field beside his own: the very board that
// side's seat is shown, drawn by a second map of the same kind. The page
// decides nothing here: the server offers remove and replace, refuses
// what it refuses, and filters each side's view.

import { h, fill, pt } from './dom.js';
import { sentence } from './api.js';

/** What may befall a general who is removed. */
const FATES = ['killed', 'captured'];

const $ = (id) => /** @type {any} */ (document.getElementById(id));

/**
 * @typedef {{kind:string, id:string}} Ref
 * @typedef {{
 *   api: import('./api.js').Api,
 *   info: () => any,
 *   board: () => any,
 *   map: () => any,
 *   banner: (msg:string, kind?:'error'|'info', extra?:HTMLElement|null) => void,
 *   act: (cmd:object, done?:string) => Promise<boolean>,
 *   select: (ref:Ref|null) => void,
 *   redraw: () => void,
 *   name: (id:string) => string,
 *   sideName: (id:string) => string,
 *   colour: (side:string) => string,
 *   acting: (side:string) => void,
 * }} Hooks
 */

export class UmpireHand {
  /** @param {Hooks} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    /**
     * While the umpire chooses a place on the map: what the tap is for.
     * @type {((to:any) => void)|null}
     */
    this.pickFor = null;
    /** @type {Ref|null} */ this.selected = null;
    /** The fallen general whose replacement form is open. */
    this.replacing = '';
    /** @type {Map<string, any>} what has been typed in each replacement form */
    this.drafts = new Map();
    this.viewsOn = false;
    /** @type {Map<string, {view:any, svg:SVGSVGElement, state:HTMLElement, key:string}>} */
    this.views = new Map();
    this.loading = false;
    this.again = false;
    this.styled = false;
  }

  /** Shows the umpire's bar: act as, the acting note, place, the sides' views. */
  mount() {
    const info = this.ctx.info();
    $('umpire-bar').hidden = false;
    const sel = $('act-as');
    fill(sel, h('option', { value: '', text: 'Umpire' }), ...(info.sides || []).map((sd) => h('option', { value: sd.id, text: sd.name })));
    sel.addEventListener('change', () => this.actAs(sel.value));
    $('place-piece').addEventListener('click', () => { if (this.selected) this.startPlace(this.selected); });
    $('sides-toggle').addEventListener('click', () => this.showViews(!this.viewsOn));
    this.update();
  }

  /**
   * The umpire's commands go as side's from now on ('' for his own).
   * @param {string} side
   */
  actAs(side) {
    this.ctx.api.actAs = side;
    const note = $('acting-note');
    note.hidden = !side;
    note.textContent = side ? `Acting for ${this.ctx.sideName(side)}` : '';
    note.setAttribute('class', `acting-note${side ? ` c-${this.ctx.colour(side)}` : ''}`);
    note.dataset.side = side;
    $('act-as').value = side;
    document.body.classList.toggle('acting', !!side);
    this.ctx.acting(side); // the board again, with that side's offers
    this.ctx.banner(side
      ? `Your commands now go as ${this.ctx.sideName(side)}'s, and the rules check them as that side's; ending a step and placing a piece stay yours.`
      : 'Your commands go as the umpire’s again.', 'info');
  }

  /** The board has changed: the bar, and the sides' views if shown. */
  refreshed() {
    this.update();
    if (this.viewsOn) this.refreshViews();
  }

  update() {
    const info = this.ctx.info();
    const fog = !!info.fog && info.fog !== 'off';
    $('sides-toggle').hidden = !fog;
    if (!fog && this.viewsOn) this.showViews(false);
    this.placeButton();
  }

  /** @param {Ref|null} ref the piece selected on the map */
  selectionChanged(ref) {
    this.selected = ref;
    if (!ref || ref.id !== this.replacing) this.replacing = '';
    this.placeButton();
  }

  /** On a hex map (no card for the piece), the bar's Place… for the piece selected. */
  placeButton() {
    const b = this.ctx.board();
    const ref = this.selected;
    const btn = $('place-piece');
    const on = !!(b && (b.space || {}).kind === 'hex' && ref && (ref.kind === 'unit' || ref.kind === 'general'));
    btn.hidden = !on;
    btn.textContent = on ? `Place ${this.ctx.name(ref.id)}…` : 'Place…';
  }

  // ---- placing a piece ------------------------------------------------------

  /** Whether a tap on the map is the umpire's choice of a place. */
  picking() { return !!this.pickFor; }

  /**
   * A tap on the map (a table point, or a hex as [column, row]): the
   * umpire's, while he chooses a place.
   * @param {number[]} p
   * @returns {boolean} whether the tap was his
   */
  onPick(p) {
    if (!this.pickFor) return false;
    const b = this.ctx.board();
    const to = (b.space || {}).kind === 'hex' ? this.ctx.map().label(p) : p;
    const f = this.pickFor;
    this.pickFor = null;
    f(to);
    this.ctx.redraw();
    return true;
  }

  /** A position as the page writes it: (x, y) on a table, a hex's label. */
  where(to) { return Array.isArray(to) ? pt(to) : String(to); }

  /**
   * Place…: the next tap on the map chooses where, then the reason is asked.
   * @param {Ref} ref
   */
  startPlace(ref) {
    const label = this.ctx.name(ref.id);
    this.pickFor = (to) => {
      const form = this.placeOffer(ref.id, to);
      this.ctx.banner(`Place ${label} at ${this.where(to)}: give the reason the log will keep.`, 'info', form);
    };
    const cancel = h('div.banner-extra', null, h('button.btn.small', {
      type: 'button', dataset: { placeCancel: ref.id }, text: 'Cancel',
      on: { click: () => { this.pickFor = null; this.ctx.banner(''); this.ctx.redraw(); } },
    }));
    this.ctx.banner(`Tap the map where ${label} is to stand.`, 'info', cancel);
    this.ctx.redraw();
  }

  /**
   * The banner's form that places a piece where a refused move would
   * have put it: a one-line reason and "Place it there anyway".
   * @param {string} piece @param {any} to @param {{formation?:string, facing?:number}} [extra]
   * @returns {HTMLElement}
   */
  placeOffer(piece, to, extra = {}) {
    const reason = h('input.place-reason', { type: 'text', maxlength: 200, placeholder: 'reason', 'aria-label': 'Why the piece is placed there' });
    const form = h('form.banner-extra', { dataset: { place: piece }, on: { submit: (ev) => {
      ev.preventDefault();
      const why = reason.value.trim();
      if (!why) { reason.focus(); return; }
      /** @type {any} */
      const place = { piece, to, why };
      if (extra.formation) place.formation = extra.formation;
      if (extra.facing !== undefined) place.facing = extra.facing;
      this.ctx.act({ place }, `${this.ctx.name(piece)} placed at ${this.where(to)} by the umpire.`);
    } } }, reason, h('button.btn.small', { type: 'submit', dataset: { placeAnyway: piece }, text: 'Place it there anyway' }));
    requestAnimationFrame(() => { if (reason.isConnected) reason.focus(); });
    return form;
  }

  /**
   * The offer to place the piece of the move the server just refused
   * with msg, or null (no such move, or another refusal).
   * @param {string} msg the refusal as the banner shows it
   * @returns {HTMLElement|null}
   */
  offerFor(msg) {
    const r = this.ctx.api.refused;
    if (!msg || !r || sentence(r.err) !== msg) return null;
    const m = r.cmd.move;
    return this.placeOffer(m.unit || m.general, m.to, { formation: m.formation, facing: m.facing });
  }

  // ---- the card of the selected piece ----------------------------------------

  /**
   * What the umpire may do with the selected piece, for its card: Place…,
   * and a general's removal or replacement when the server offers them.
   * @param {Ref|null} ref
   * @returns {HTMLElement[]}
   */
  card(ref) {
    const b = this.ctx.board();
    if (!ref || !b || (ref.kind !== 'unit' && ref.kind !== 'general')) return [];
    const st = b.state;
    const piece = ((ref.kind === 'unit' ? st.units : st.generals || st.leaders) || []).find((x) => x.id === ref.id);
    if (!piece) return [];
    const offered = (b.offers || {})[ref.id] || [];
    const label = this.ctx.name(ref.id);
    const row = [];
    if (piece['on-table'] && !piece.fate) {
      row.push(h('button.btn.small', {
        type: 'button', dataset: { place: ref.id }, text: 'Place…', title: 'Set the piece where you tap, whatever the rules say of the move; the log keeps your reason',
        on: { click: () => this.startPlace(ref) },
      }));
    }
    if (offered.includes('remove')) {
      const fate = h('select', { 'aria-label': 'Killed or captured', dataset: { fate: ref.id } }, ...FATES.map((f) => h('option', { value: f, text: f })));
      row.push(fate, h('button.btn.small.danger', {
        type: 'button', dataset: { remove: ref.id }, text: 'Remove (casualty)', title: 'The general falls; his formation waits for a replacement',
        on: { click: () => this.ctx.act({ remove: { general: ref.id, fate: fate.value } }, `${label} is ${fate.value}.`) },
      }));
    }
    if (offered.includes('replace')) {
      row.push(h('button.btn.small', {
        type: 'button', dataset: { replace: ref.id }, text: 'Replace…', 'aria-expanded': String(this.replacing === ref.id), title: 'A new general takes his place',
        on: { click: () => { this.replacing = this.replacing === ref.id ? '' : ref.id; this.ctx.select(ref); } },
      }));
    }
    if (!row.length) return [];
    const out = [h('div.umpire-acts', null, h('div.row', null, ...row))];
    if (this.replacing === ref.id && offered.includes('replace')) out.push(this.replaceForm(piece, b));
    return out;
  }

  /**
   * The form of a fallen general's replacement: the new general's id,
   * name, quality (the rule set's, as the board gives them), command
   * range and where he stands (the fallen one's place, or a tap).
   * @param {any} g the fallen general
   * @param {any} b the board
   */
  replaceForm(g, b) {
    const qualities = b.qualities || [];
    if (!this.drafts.has(g.id)) {
      this.drafts.set(g.id, {
        id: `${g.id}-2`, name: '', quality: qualities.includes(g.quality) ? g.quality : qualities[0] || '',
        range: String(g.range ?? ''),
        x: Array.isArray(g.at) ? String(g.at[0]) : '', y: Array.isArray(g.at) ? String(g.at[1]) : '',
      });
    }
    const d = this.drafts.get(g.id);
    const keep = (key) => (ev) => { d[key] = ev.target.value; };
    const id = h('input', { type: 'text', maxlength: 60, value: d.id, dataset: { field: 'id' }, 'aria-label': 'New general id', on: { input: keep('id') } });
    const nm = h('input', { type: 'text', maxlength: 80, value: d.name, placeholder: 'optional', dataset: { field: 'name' }, 'aria-label': 'New general name', on: { input: keep('name') } });
    const q = h('select', { dataset: { field: 'quality' }, 'aria-label': 'Quality', on: { change: keep('quality') } },
      ...qualities.map((x) => h('option', { value: x, text: x, selected: x === d.quality })));
    const rg = h('input', { type: 'number', min: 0, step: 0.5, inputmode: 'decimal', value: d.range, dataset: { field: 'range' }, 'aria-label': 'Command range in inches', on: { input: keep('range') } });
    const x = h('input', { type: 'number', step: 0.5, inputmode: 'decimal', value: d.x, dataset: { field: 'x' }, 'aria-label': 'x', on: { input: keep('x') } });
    const y = h('input', { type: 'number', step: 0.5, inputmode: 'decimal', value: d.y, dataset: { field: 'y' }, 'aria-label': 'y', on: { input: keep('y') } });
    const tap = () => {
      this.pickFor = (to) => {
        if (Array.isArray(to)) { d.x = String(to[0]); d.y = String(to[1]); }
        this.ctx.banner('');
        this.ctx.select({ kind: 'general', id: g.id });
      };
      this.ctx.banner(`Tap the map where the new general stands.`, 'info', h('div.banner-extra', null,
        h('button.btn.small', { type: 'button', text: 'Cancel', on: { click: () => { this.pickFor = null; this.ctx.banner(''); this.ctx.redraw(); } } })));
      this.ctx.redraw();
    };
    return h('form.replace-form', { dataset: { replacing: g.id }, on: { submit: async (ev) => {
      ev.preventDefault();
      if (d.x === '' || d.y === '') { tap(); return; }
      /** @type {any} */
      const by = { id: d.id.trim(), quality: d.quality, range: Number(d.range), at: [Number(d.x), Number(d.y)] };
      if (d.name.trim()) by.name = d.name.trim();
      if (await this.ctx.act({ replace: { general: g.id, by } }, `${by.name || by.id} takes the place of ${this.ctx.name(g.id)}.`)) {
        this.drafts.delete(g.id);
        this.replacing = '';
        this.ctx.select({ kind: 'general', id: by.id });
      }
    } } },
    h('label', { text: 'New id' }), id,
    h('label', { text: 'Name' }), nm,
    h('label', { text: 'Quality' }), q,
    h('label', { text: 'Range ″' }), rg,
    h('label', { text: 'At' }), h('div.xy', null, x, y, h('button.btn.small', { type: 'button', text: 'Tap the map', on: { click: tap } })),
    h('button.btn.primary.small.wide', { type: 'submit', dataset: { replaceSend: g.id }, text: `Replace ${this.ctx.name(g.id)}` }));
  }

  // ---- the sides' views ------------------------------------------------------

  /** @param {boolean} on */
  showViews(on) {
    this.viewsOn = on;
    $('sides-toggle').setAttribute('aria-pressed', String(on));
    $('sides-views').hidden = !on;
    if (!on) return;
    this.mirrorStyles();
    this.build();
    this.refreshViews();
  }

  /** A map of each side's view, of the same kind as the umpire's own, without controls. */
  build() {
    if (this.views.size) return;
    const main = this.ctx.map();
    const Base = main.constructor;
    // A side's view writes neither the key nor the scale and compass
    // under the map, which are the umpire's map's.
    class SideView extends Base {
      applyView() {
        super.applyView();
        if (main.model) main.applyView();
      }
      legend() {}
    }
    const box = $('sides-views');
    const none = () => {};
    for (const sd of this.ctx.info().sides || []) {
      const svg = this.blankMap(sd);
      const state = h('span.side-state');
      box.append(h('div.side-view', { dataset: { side: sd.id } },
        h(`h4.c-${this.ctx.colour(sd.id)}`, null, h('span.swatch'), `What ${sd.name} sees`, state), svg));
      const view = new SideView(svg, { onPick: none, onSelect: none, onMove: async () => false });
      // Its layers are found: their ids would repeat the umpire's map's.
      for (const el of svg.querySelectorAll('[id]')) el.removeAttribute('id');
      this.views.set(sd.id, { view, svg, state, key: '' });
    }
  }

  /**
   * An empty copy of the umpire's map: its layers and nothing drawn.
   * @param {{id:string, name:string}} sd
   * @returns {SVGSVGElement}
   */
  blankMap(sd) {
    const svg = /** @type {SVGSVGElement} */ ($('map').cloneNode(true));
    for (const a of ['id', 'viewBox', 'style', 'data-zoom', 'data-laid', 'transform']) svg.removeAttribute(a);
    const defs = svg.querySelector('defs');
    if (defs) defs.remove(); // its patterns are the umpire's map's, found by id
    for (const g of svg.querySelectorAll('g')) g.removeAttribute('transform');
    for (const g of svg.querySelectorAll('g[id^="layer-"]')) g.replaceChildren();
    svg.setAttribute('class', 'side-map');
    svg.setAttribute('aria-label', `The field as ${sd.name} sees it`);
    svg.dataset.side = sd.id;
    return svg;
  }

  /** Fetches each side's board as that side sees it and draws it. */
  async refreshViews() {
    if (this.loading) { this.again = true; return; }
    this.loading = true;
    const api = this.ctx.api;
    try {
      do {
        this.again = false;
        const sides = [...this.views.keys()];
        const boards = await Promise.all(sides.map((side) => api.get(api.path(`/board?as=${encodeURIComponent(side)}`))));
        sides.forEach((side, i) => this.draw(side, boards[i]));
      } while (this.again && this.viewsOn);
    } catch (err) {
      this.ctx.banner(sentence(err));
    } finally {
      this.loading = false;
    }
  }

  /**
   * Draws a side's board in its view.
   * @param {string} side @param {any} b the board as side sees it
   */
  draw(side, b) {
    const v = this.views.get(side);
    if (!v) return;
    const key = JSON.stringify(b);
    if (key === v.key) return;
    v.key = key;
    const st = b.state || {};
    const gens = [...(st.generals || []), ...(st.leaders || [])];
    const name = (id) => {
      if (b.names && b.names[id]) return b.names[id];
      const g = gens.find((x) => x.id === id);
      return (g && g.name) || id;
    };
    const seat = { role: 'side', side, label: this.ctx.sideName(side) };
    const colour = this.ctx.colour;
    if ((b.space || {}).kind === 'hex') {
      v.view.render({ space: b.space, state: st, extra: b.extra || {}, names: b.names || {}, seat, colour, name, selected: null, picking: false, overlay: null, showRanges: false });
    } else {
      const w = b['order-text'] || {};
      v.view.render({
        field: b.field, edge: (b.space || {}).edge, state: st, names: b.names || {}, etas: b.etas || {}, reach: b.reach || 0, reaching: b.reaching || [],
        words: { orders: w.orders || {}, acting: w.acting || {}, then: w.then || {} },
        seat, sides: this.ctx.info().sides, colour, name, extra: b.extra || null,
        canMove: false, canPick: false, objective: null, selected: null, showRanges: false, showReach: false, pending: {},
      });
    }
    const seen = [...(st.units || []), ...gens].filter((p) => p.side !== side && p['on-table'] && !p.gone).length;
    v.state.textContent = `${seen} enemy piece${seen === 1 ? '' : 's'} in sight`;
  }

  /**
   * The side views' maps look as the umpire's: his map's rules (#map …)
   * are copied for .side-map into umpire.css's sheet, once.
   */
  mirrorStyles() {
    if (this.styled) return;
    const own = [...document.styleSheets].find((sh) => /\/css\/umpire\.css$/.test(sh.href || ''));
    if (!own) return;
    this.styled = true;
    const has = /#map(?![\w-])/;
    const all = /#map(?![\w-])/g;
    /** @param {CSSRuleList} rules @returns {string[]} */
    const copy = (rules) => {
      const out = [];
      for (const r of rules) {
        if (r instanceof CSSStyleRule) {
          const sels = r.selectorText.split(',').map((x) => x.trim()).filter((x) => has.test(x)).map((x) => x.replace(all, '.side-map'));
          if (sels.length) out.push(`${sels.join(', ')} { ${r.style.cssText} }`);
        } else if (r instanceof CSSMediaRule) {
          const inner = copy(r.cssRules);
          if (inner.length) out.push(`@media ${r.conditionText} { ${inner.join(' ')} }`);
        }
      }
      return out;
    };
    for (const sh of document.styleSheets) {
      if (sh === own) continue;
      let rules;
      try { rules = sh.cssRules; } catch { continue; }
      for (const text of copy(rules)) {
        try { own.insertRule(text, own.cssRules.length); } catch { /* a rule this browser does not take */ }
      }
    }
  }
}
