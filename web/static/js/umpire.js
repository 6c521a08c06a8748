// The umpire's hand on the game page (issue 15): acting for a side (his
// commands go as that side's, and the rules check them as theirs),
// placing a piece where he says whatever the rules say of the move (the
// engine's place, with his reason in the log), and, under fog of war,
// each side's view of the field beside his own: the very board that
// side's seat is shown, drawn by a second map of the same kind. What a
// rule set adds to the card of a piece (a general's fall and replacement,
// say) is its page module's umpireCard. The page decides nothing here:
// the server offers the commands, refuses what it refuses, and filters
// each side's view.

import { h, fill, pt } from './dom.js';
import { sentence } from './api.js';

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
 *   rules: () => any,
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
    /** The piece whose form (the rule set's, on its card) is open. */
    this.opened = '';
    /** @type {Map<string, any>} what has been typed in each piece's form */
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
    if (!ref || ref.id !== this.opened) this.opened = '';
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
   * and what the rule set's module adds (its umpireCard hook, e.g. a
   * general's removal and replacement when the server offers them).
   * @param {Ref|null} ref
   * @returns {HTMLElement[]}
   */
  card(ref) {
    const b = this.ctx.board();
    if (!ref || !b || (ref.kind !== 'unit' && ref.kind !== 'general')) return [];
    const st = b.state;
    const piece = ((ref.kind === 'unit' ? st.units : st.generals || st.leaders) || []).find((x) => x.id === ref.id);
    if (!piece) return [];
    const hook = (this.ctx.rules() || {}).umpireCard;
    const own = (hook && hook(piece, this.cardContext(ref))) || {};
    const row = [];
    if (piece['on-table'] && own.place !== false) {
      row.push(h('button.btn.small', {
        type: 'button', dataset: { place: ref.id }, text: 'Place…', title: 'Set the piece where you tap, whatever the rules say of the move; the log keeps your reason',
        on: { click: () => this.startPlace(ref) },
      }));
    }
    row.push(...(own.acts || []));
    if (!row.length) return [];
    return [h('div.umpire-acts', null, h('div.row', null, ...row)), ...(own.below || [])];
  }

  /**
   * What a rule set's umpireCard hook is given for the selected piece:
   * the board, the commands the server offers for the piece, the page's
   * act, select, banner and names, the piece's open form (one piece's at
   * a time) and what has been typed in it, and a tap on the map.
   * @param {Ref} ref
   */
  cardContext(ref) {
    const ctx = this.ctx;
    const b = ctx.board();
    return {
      board: b,
      offered: (b.offers || {})[ref.id] || [],
      act: ctx.act, select: ctx.select, banner: ctx.banner, name: ctx.name,
      /** Whether the piece's form is open. */
      open: this.opened === ref.id,
      /** Opens the piece's form, or closes it if open, and shows the card again. */
      toggle: () => { this.opened = this.opened === ref.id ? '' : ref.id; ctx.select(ref); },
      /** Closes the form. */
      close: () => { if (this.opened === ref.id) this.opened = ''; },
      /** What has been typed in the piece's form, made by init the first time. */
      draft: (/** @type {() => any} */ init) => {
        if (!this.drafts.has(ref.id)) this.drafts.set(ref.id, init());
        return this.drafts.get(ref.id);
      },
      /** Forgets what was typed. */
      forget: () => { this.drafts.delete(ref.id); },
      /**
       * Asks for a tap on the map with prompt in the banner (with Cancel);
       * then(to) has the place tapped.
       */
      pick: (/** @type {string} */ prompt, /** @type {(to:any) => void} */ then) => {
        this.pickFor = then;
        ctx.banner(prompt, 'info', h('div.banner-extra', null,
          h('button.btn.small', { type: 'button', text: 'Cancel', on: { click: () => { this.pickFor = null; ctx.banner(''); ctx.redraw(); } } })));
        ctx.redraw();
      },
    };
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
