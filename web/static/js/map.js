// The map: an SVG whose user units are the table's inches (x east, y
// south). Draws the table and its entry grid, its terrain, the pieces,
// command ranges, the enemy's engagement reach, messengers and their
// routes, and order objectives; pans and zooms (wheel, pinch, buttons);
// lets a player drag his pieces and tap an objective. The table is
// turned so that the seat's own base edge is at the bottom of the
// screen (the board names the edge); text stays upright, and labels are
// laid out so that none hides another.

import { s, h, fill, num, pt, tenth, deg, squareOf, zoomed, showView, mapPoint } from './dom.js';
import { Turn, Labels, turnOf, viewMoved, layLabels, fillView, shortName, revealed } from './readable.js';

/** Margin drawn around the table, inches. */
const MARGIN = 5;

/** The outline of an enemy unit last seen (its formation is not known), and of a unit whose module sizes none, inches; a general's radius. */
const GHOST = [1.4, 0.9];
const GHOST_R = 0.7;

/** Radius of a general's marker by the kind of formation he commands. */
const GENERAL_R = { army: 1.05, wing: 0.9, corps: 0.8, division: 0.6, brigade: 0.7 };

/** The closest zoom at which a general's name shows, by his formation's kind. */
const GENERAL_ZOOM = { division: 'mid' };

/** The pixels kept free of the table when it is fitted: the map tools on the left. */
const PAD = { left: 58, top: 8, right: 8, bottom: 8 };

/** Names of the kinds of terrain in the key. */
const TERRAIN_WORDS = {
  'light-woods': 'light woods', 'heavy-woods': 'heavy woods', ford: 'ford', 'gradual-slope': 'gentle slope', slope: 'slope',
  'steep-slope': 'steep slope', town: 'town', 'linear-obstacle': 'wall or hedge', river: 'river', road: 'road',
};

/**
 * @typedef {{kind:'unit'|'general'|'messenger', id:string}} Ref
 * @typedef {{
 *   field:any, state:any, names:Object<string,string>, etas:Object<string,number>, reach:number, reaching:string[],
 *   words:import('./oob.js').OrderText,
 *   seat:{role:string, side?:string}, colour:(side:string)=>string, name:(id:string)=>string,
 *   canMove:boolean, canPick:boolean, objective:number[]|null, selected:Ref|null,
 *   showRanges:boolean, showReach:boolean, pending:Object<string,number[]>,
 *   extra?:any, edge?:string, image?:any, backdrop?:string,
 *   offers?:(id:string)=>string[], moving?:boolean, ticked?:Set<string>
 * }} MapModel
 *
 * extra is the rule set's board, which a view drawing units by their
 * footprints reads (footprint.js). edge is the seat's base edge (the
 * board's space.edge), turned to the bottom of the screen. offers are
 * the board's offers for a piece; moving says whether the board offers
 * move for any piece at all (then only those may be dragged). ticked
 * holds the pieces ticked in a panel, highlighted on the map.
 */

export class MapView {
  /**
   * @param {SVGSVGElement} svg
   * @param {{onPick:(p:number[])=>void, onSelect:(r:Ref|null)=>void,
   *          onMove:(r:Ref, to:number[])=>Promise<boolean>}} hooks
   */
  constructor(svg, hooks) {
    this.svg = svg;
    this.hooks = hooks;
    this.layers = {};
    for (const g of svg.querySelectorAll('g[id^="layer-"]')) this.layers[g.id.slice(6)] = g;
    /** The group of every layer that turns with the table. */
    this.vp = /** @type {SVGGElement} */ (svg.querySelector('#viewport'));
    /** @type {MapModel|null} */
    this.model = null;
    this.view = { x: 0, y: 0, w: 100, h: 50 };
    this.fitted = false;
    this.turn = new Turn(0, 0, 0);
    this.labels = new Labels();
    this.laidAt = 0;
    this.layoutSoon = 0;
    /** @type {Map<number,{x:number,y:number}>} */
    this.pointers = new Map();
    this.gesture = null;
    this.listen();
    this.userMoved = false;
    new ResizeObserver(() => { if (this.userMoved) this.applyView(); else this.fill(); }).observe(svg);
  }

  /** @param {MapModel} model */
  render(model) {
    this.model = model;
    this.redraw = false;
    const f = model.field;
    const turn = new Turn(turnOf(model.edge), f.width / 2, f.depth / 2);
    if (turn.deg !== this.turn.deg || turn.cx !== this.turn.cx || turn.cy !== this.turn.cy) {
      this.turn = turn;
      if (turn.transform) this.vp.setAttribute('transform', turn.transform); else this.vp.removeAttribute('transform');
      this.fitted = false;
    }
    if (!this.fitted) { this.fill(); this.fitted = true; }
    if (this.gesture && this.gesture.type === 'piece') { this.redraw = true; return; } // redraw when the drag ends
    this.marks = [];
    this.pieceBoxes = [];
    this.hits = [];
    this.drawTable();
    this.drawReach();
    this.drawRanges();
    this.drawObjectives();
    this.drawGhosts();
    this.drawUnits();
    this.drawGenerals();
    this.drawMessengers();
    this.drawPick();
    this.drawHits();
    this.labels.set(this.marks);
    this.labels.setObstacles(this.pieceBoxes);
    this.layout();
    this.legend();
  }

  // ---- view: pan and zoom ------------------------------------------------

  /** The table and its margin in the SVG's frame (turned). */
  bounds() {
    const f = this.model ? this.model.field : { width: 96, depth: 48 };
    return this.turn.box(-MARGIN, -MARGIN, f.width + MARGIN, f.depth + MARGIN);
  }

  /**
   * The view the page opens on (readable.js, fillView): the table fills
   * the map's pane, as close as it may while every piece shown stays in
   * sight.
   */
  fill() {
    if (!this.model) { this.fit(); return; }
    const r = this.svg.getBoundingClientRect();
    const m = this.model;
    const pts = [], own = [];
    for (const list of [m.state.units, m.state.generals]) {
      for (const p of list || []) {
        if (!p['on-table']) continue;
        const q = this.turn.at(p.at[0], p.at[1]);
        pts.push(q);
        if (m.seat.role === 'umpire' || p.side === m.seat.side) own.push(q);
      }
    }
    const v = fillView(this.bounds(), r, PAD, pts, own, 2, 0);
    if (!v) { this.fit(); return; }
    this.view = v;
    this.userMoved = false;
    this.applyView();
  }

  /** Shows the whole table, clear of the map tools on the left. */
  fit() {
    const b = this.bounds();
    const r = this.svg.getBoundingClientRect();
    const padW = PAD.left + PAD.right, padH = PAD.top + PAD.bottom;
    if (r.width > padW * 2 && r.height > padH * 2) {
      const k = Math.min((r.width - padW) / b.w, (r.height - padH) / b.h); // px per inch
      const vw = r.width / k, vh = r.height / k;
      const left = Math.max(PAD.left / k, (vw - b.w) / 2);
      this.view = { x: b.x - left, y: b.y - PAD.top / k - (vh - padH / k - b.h) / 2, w: vw, h: vh };
    } else {
      this.view = { x: b.x, y: b.y, w: b.w, h: b.h };
    }
    this.userMoved = false;
    this.applyView();
  }

  /**
   * Zooms by factor about a point of the SVG's frame (the centre by default).
   * @param {number} factor more than 1 zooms in
   * @param {{x:number,y:number}} [about]
   */
  zoom(factor, about) {
    const b = this.bounds();
    this.view = zoomed(this.view, factor, about, 6, Math.max(b.w, b.h) * 2);
    this.userMoved = true;
    this.applyView();
  }

  applyView() {
    showView(this.svg, this.view, [34, 18, 9], 6);
    viewMoved(this, { unit: 'inches', per: 1, steps: [1, 2, 3, 6, 12, 24, 48] }, compass);
  }

  /** Lays the labels out for the zoom shown. */
  layout() { layLabels(this); }

  /**
   * The table point under a screen point.
   * @param {number} cx @param {number} cy client coordinates
   * @returns {{x:number,y:number}}
   */
  toTable(cx, cy) { return mapPoint(this.vp, cx, cy); }

  /** The point of the SVG's frame (the view box's) under a screen point. */
  svgPoint(cx, cy) { return mapPoint(this.svg, cx, cy); }

  /**
   * The client (screen) point of a table point, for tests and tools.
   * @param {number} x @param {number} y inches
   * @returns {{x:number,y:number}}
   */
  toScreen(x, y) { return mapPoint(this.vp, x, y, true); }

  listen() {
    const svg = this.svg;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const f = Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015));
      this.zoom(f, this.svgPoint(ev.clientX, ev.clientY));
    }, { passive: false });
    svg.addEventListener('pointerdown', (ev) => this.down(ev));
    svg.addEventListener('pointermove', (ev) => this.moveTo(ev));
    svg.addEventListener('pointerup', (ev) => this.up(ev, false));
    svg.addEventListener('pointercancel', (ev) => this.up(ev, true));
    svg.addEventListener('lostpointercapture', (ev) => { if (this.pointers.has(ev.pointerId)) this.up(ev, true); });
  }

  /** @param {PointerEvent} ev */
  down(ev) {
    if (ev.button !== 0 && ev.pointerType === 'mouse') return;
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    try { this.svg.setPointerCapture(ev.pointerId); } catch { /* synthetic pointers */ }
    if (this.pointers.size === 2) {
      // a second finger: pinch, whatever the first one was doing
      if (this.gesture && this.gesture.type === 'piece') this.cancelPiece();
      const [a, b] = [...this.pointers.values()];
      this.gesture = { type: 'pinch', dist: Math.hypot(a.x - b.x, a.y - b.y) };
      return;
    }
    if (this.pointers.size > 2) return;
    const ref = this.pieceUnder(ev);
    const el = ref ? this.find(ref) : null;
    if (ref && el && ref.kind !== 'messenger' && this.movable(ref)) {
      const at = this.posOf(ref);
      // Where on the piece it was grabbed: the piece keeps that point
      // under the pointer as it is dragged.
      const p = this.toTable(ev.clientX, ev.clientY);
      const grab = [p.x - at[0], p.y - at[1]];
      this.gesture = { type: 'piece', ref, el, from: at, to: at, grab, sx: ev.clientX, sy: ev.clientY, moved: false };
      el.classList.add('dragging');
      ev.preventDefault();
      return;
    }
    this.gesture = { type: 'pan', ref, sx: ev.clientX, sy: ev.clientY, lx: ev.clientX, ly: ev.clientY, moved: false };
  }

  /**
   * The piece a press at ev is for. Of everything under the pointer (not
   * only the topmost element: a label, a general's ring or another
   * piece's hit area may lie over the piece meant), a piece's own body
   * comes before a hit area around one, and a piece the seat may drag
   * before one it may not; the topmost of equals.
   * @param {PointerEvent} ev
   * @returns {Ref|null}
   */
  pieceUnder(ev) {
    const sel = '[data-unit],[data-general],[data-messenger],[data-hit]';
    const under = typeof document.elementsFromPoint === 'function' ? document.elementsFromPoint(ev.clientX, ev.clientY) : [];
    let best = null, rank = Infinity;
    for (const e of under) {
      if (!this.svg.contains(e)) continue;
      const host = e.closest(sel);
      const ref = host ? refOf(host) : null;
      if (!ref) continue;
      const halo = !!host.dataset.hit || e.classList.contains('hit');
      const r = (halo ? 2 : 0) + (ref.kind !== 'messenger' && this.movable(ref) ? 0 : 1);
      if (r < rank) { rank = r; best = ref; }
    }
    if (best) return best;
    // A synthetic pointer at no point of the screen: the element pressed.
    const hit = /** @type {Element} */ (ev.target).closest(sel);
    return hit ? refOf(hit) : null;
  }

  /** @param {PointerEvent} ev */
  moveTo(ev) {
    if (!this.pointers.has(ev.pointerId)) return;
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    const g = this.gesture;
    if (!g) return;
    if (g.type === 'pinch') {
      if (this.pointers.size < 2) return; // one finger lifted: wait for both up
      const [a, b] = [...this.pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (g.dist > 0 && d > 0) this.zoom(d / g.dist, this.svgPoint((a.x + b.x) / 2, (a.y + b.y) / 2));
      g.dist = d;
      return;
    }
    if (!g.moved && Math.hypot(ev.clientX - g.sx, ev.clientY - g.sy) < 5) return;
    g.moved = true;
    if (g.type === 'pan') {
      const m = this.svg.getScreenCTM();
      const k = m ? 1 / m.a : 0.1;
      this.view.x -= (ev.clientX - g.lx) * k;
      this.view.y -= (ev.clientY - g.ly) * k;
      g.lx = ev.clientX;
      g.ly = ev.clientY;
      this.userMoved = true;
      this.applyView();
      return;
    }
    if (g.type === 'piece') {
      const p = this.toTable(ev.clientX, ev.clientY);
      const [gx, gy] = g.grab || [0, 0];
      // A tenth of an inch is as fine as a hand places a piece.
      g.to = [Math.round((p.x - gx) * 10) / 10, Math.round((p.y - gy) * 10) / 10];
      this.placePiece(g.el, g.ref, g.to);
      this.drawDragGuide(g);
    }
  }

  /** @param {PointerEvent} ev @param {boolean} cancelled */
  up(ev, cancelled) {
    this.pointers.delete(ev.pointerId);
    const g = this.gesture;
    if (!g) return;
    if (g.type === 'pinch') {
      if (this.pointers.size === 0) this.gesture = null;
      return;
    }
    this.gesture = null;
    if (g.type === 'piece') {
      g.el.classList.remove('dragging');
      fill(this.layers.drag);
      if (cancelled) { this.render(this.model); return; }
      if (!g.moved) { if (this.redraw) this.render(this.model); this.hooks.onSelect(g.ref); return; }
      g.el.classList.add('pending');
      // Whatever the answer, the page then draws the board the server
      // gives (app.js): never the place the piece was dropped.
      this.hooks.onMove(g.ref, g.to).then((ok) => {
        if (!ok) {
          const back = this.find(g.ref);
          if (back) back.classList.add('refused');
        }
      });
      return;
    }
    if (cancelled || g.moved) return;
    // a tap
    if (g.ref) { this.hooks.onSelect(g.ref); return; }
    const p = this.toTable(ev.clientX, ev.clientY);
    if (this.model && this.model.canPick && this.onTable([p.x, p.y])) {
      this.hooks.onPick([Math.round(p.x * 2) / 2, Math.round(p.y * 2) / 2]);
    } else {
      this.hooks.onSelect(null);
    }
  }

  cancelPiece() {
    const g = this.gesture;
    if (!g || g.type !== 'piece') return;
    g.el.classList.remove('dragging');
    fill(this.layers.drag);
    this.gesture = null;
    this.render(this.model);
  }

  /** @param {number[]} p */
  onTable(p) {
    const f = this.model.field;
    return p[0] >= 0 && p[1] >= 0 && p[0] <= f.width && p[1] <= f.depth;
  }

  /**
   * Whether the seat may drag the piece: its own, on the table, while it
   * may move. A rule set's view narrows this with its own rules.
   * @param {Ref} ref
   */
  movable(ref) {
    const m = this.model;
    if (!m || !m.canMove) return false;
    const p = this.pieceOf(ref);
    if (!p || !p['on-table']) return false;
    // Where the board offers move for pieces, only those may be dragged.
    // (The umpire may drag any piece: a move the rules refuse, he may
    // place there all the same.)
    if (m.moving && m.offers && m.seat.role !== 'umpire' && !m.offers(ref.id).includes('move')) return false;
    return m.seat.role === 'umpire' || p.side === m.seat.side;
  }

  /**
   * The data of a piece's group: its id and side, and whether the seat
   * may drag it (data-draggable, which tests read).
   * @param {Ref} ref @param {string} side
   */
  pieceData(ref, side) {
    return { [ref.kind]: ref.id, side, draggable: this.movable(ref) ? 'true' : undefined };
  }

  /** Whether the piece is ticked in a panel (highlighted on the map). @param {Ref} ref */
  ticked(ref) {
    const t = this.model && this.model.ticked;
    return !!t && t.has(ref.id);
  }

  /**
   * Pans the view so that the piece is in sight, if it is not: a piece
   * chosen in a panel is shown on the map.
   * @param {Ref} ref
   */
  reveal(ref) {
    const p = this.model && this.posOf(ref);
    if (!p) return;
    const v = revealed(this.view, this.turn.at(p[0], p[1]), Math.min(this.view.w, this.view.h) * 0.05);
    if (v === this.view) return;
    this.view = v;
    this.userMoved = true;
    this.applyView();
  }

  /**
   * The unit or general ref names in the state drawn, or undefined.
   * @param {Ref} ref
   */
  pieceOf(ref) {
    const m = this.model;
    return ref.kind === 'unit' ? m.state.units.find((u) => u.id === ref.id) : (m.state.generals || []).find((x) => x.id === ref.id);
  }

  /** @param {Ref} ref @returns {number[]} */
  posOf(ref) {
    const m = this.model;
    const list = ref.kind === 'unit' ? m.state.units : ref.kind === 'general' ? m.state.generals : m.state.messengers;
    const p = list.find((x) => x.id === ref.id);
    return p ? p.at : [0, 0];
  }

  /** @param {Ref} ref @returns {Element|null} */
  find(ref) {
    return this.vp.querySelector(`[data-${ref.kind}="${CSS.escape(ref.id)}"]`);
  }

  /** Moves a drawn piece to p. @param {Element} el @param {Ref} ref @param {number[]} p */
  placePiece(el, ref, p) {
    if (ref.kind === 'unit') {
      const u = this.model.state.units.find((x) => x.id === ref.id);
      el.setAttribute('transform', `translate(${p[0]} ${p[1]}) rotate(${u ? u.facing || 0 : 0})`);
    } else {
      el.setAttribute('transform', `translate(${p[0]} ${p[1]})`);
    }
  }

  drawDragGuide(g) {
    const [x0, y0] = g.from;
    const [x1, y1] = g.to;
    const d = Math.hypot(x1 - x0, y1 - y0);
    const u = g.ref.kind === 'unit' ? this.model.state.units.find((x) => x.id === g.ref.id) : null;
    const out = !this.onTable(g.to);
    fill(this.layers.drag,
      u && u.speed ? s('circle.speed', { cx: x0, cy: y0, r: u.speed, 'vector-effect': 'non-scaling-stroke' }) : null,
      s('line.guide', { x1: x0, y1: y0, x2: x1, y2: y1, 'vector-effect': 'non-scaling-stroke', class: out ? 'guide off' : 'guide' }),
      s('circle.from', { cx: x0, cy: y0, r: 0.25 }),
      s('text.lbl.guide-lbl', { x: 0.8, y: -0.8, transform: this.erect(x1, y1), text: out ? 'off the table' : `${tenth(d)}″`, dataset: { off: out ? 'true' : 'false' } }),
    );
  }

  // ---- drawing -----------------------------------------------------------

  /**
   * The transform of text that stands at (x, y) of its parent's frame
   * inside the turned table, so that it reads upright on the screen: its
   * own x and y are then offsets on the screen's axes (in inches). spin is
   * the parent's own turn on the table (a unit's facing).
   */
  erect(x, y, spin = 0) {
    const r = this.turn.deg + spin;
    const parts = [];
    if (x || y) parts.push(`translate(${x} ${y})`);
    if (r % 360) parts.push(`rotate(${-r})`);
    return parts.length ? parts.join(' ') : null;
  }

  /**
   * A label of a piece or a place: text upright on the screen at the
   * table point at (inside a parent at parent, turned by spin), laid out
   * with the others (readable.js).
   * @param {string} tag the text's tag and classes, e.g. "text.lbl.lbl-gen"
   * @param {string} text
   * @param {number[]} at what it names, on the table
   * @param {{parent?:number[], spin?:number, r?:number|{x:number,y:number}, slots?:string[], prio:number, keep?:boolean,
   *          inside?:boolean, zoom?:string, words?:(zoom:string)=>string, avoid?:boolean, data?:any}} o
   */
  mark(tag, text, at, o) {
    // In a piece's group the text turns back from the piece's frame;
    // elsewhere it stands at its own point of the table.
    const origin = o.parent || at;
    const el = /** @type {SVGTextElement} */ (s(tag, { transform: o.parent ? this.erect(0, 0, o.spin || 0) : this.erect(at[0], at[1]), text, dataset: o.data }));
    const f = this.model.field;
    this.marks.push({
      el, at: this.turn.at(at[0], at[1]), base: this.turn.at(origin[0], origin[1]), r: o.r, slots: o.slots, prio: o.prio, keep: o.keep,
      inside: o.inside ? this.turn.box(0, 0, f.width, f.depth) : null, zoom: o.zoom, text: o.words, avoid: o.avoid,
    });
    return el;
  }

  /** A label in the labels layer, in the SVG's frame (upright already). */
  fixedMark(tag, text, at, o) {
    const el = /** @type {SVGTextElement} */ (s(tag, { text }));
    return { el, at, base: { x: 0, y: 0 }, r: o.r, slots: o.slots, prio: o.prio, keep: o.keep, zoom: o.zoom, avoid: o.avoid };
  }

  /**
   * The half extents on the screen's axes of a w by d box turned by spin
   * on the table, in inches.
   */
  extent(w, d, spin = 0) {
    const a = ((this.turn.deg + spin) * Math.PI) / 180;
    const c = Math.abs(Math.cos(a)), sn = Math.abs(Math.sin(a));
    return { x: (w * c + d * sn) / 2, y: (w * sn + d * c) / 2 };
  }

  /** Keeps labels of low priority off a piece: its box on the screen's axes. */
  obstacle(at, r) {
    const p = this.turn.at(at[0], at[1]);
    this.pieceBoxes.push({ x: p.x - r.x, y: p.y - r.y, w: 2 * r.x, h: 2 * r.y });
  }

  /**
   * The terrain on the table, as the server sends it: areas filled by
   * type and patterned (woods, slopes, fords, a town with its blocks),
   * lines stroked (walls, rivers, roads); each with its name and rating
   * in a title.
   * @param {any[]} features
   */
  features(features) {
    const path = (ps, close) => ps.map((p, i) => `${i ? 'L' : 'M'}${p[0]} ${p[1]}`).join(' ') + (close ? ' Z' : '');
    const areas = [], lines = [];
    for (const f of features) {
      const title = s('title', { text: [f.name || f.id || '', f.type.replace(/-/g, ' '), f.disruptive ? f.disruptive.toUpperCase() : '', f.cover ? 'cover' : ''].filter(Boolean).join(', ') });
      if (f.area) {
        areas.push(s('g.feature', { class: `feature ft-${f.type}`, dataset: { feature: f.id || f.type, type: f.type } }, title,
          s('path.ft-area', { d: path(f.area, true) }),
          s('path.ft-pattern', { d: path(f.area, true), fill: `url(#pt-${f.type})` }),
          ...(f.blocks || []).map((b) => s('path.ft-block', { d: path(b, true) }))));
      } else if (f.line) {
        lines.push(s('g.feature', { class: `feature ft-${f.type}`, dataset: { feature: f.id || f.type, type: f.type } }, title,
          s('path.ft-line', { d: path(f.line, false), 'stroke-width': f.width ? String(f.width) : null, 'vector-effect': f.width ? null : 'non-scaling-stroke' })));
      }
    }
    return [...areas, ...lines];
  }

  drawTable() {
    const { field: f, state, colour } = this.model;
    const parts = [
      s('rect.margin', { x: -MARGIN, y: -MARGIN, width: f.width + 2 * MARGIN, height: f.depth + 2 * MARGIN }),
      s('rect.table', { x: 0, y: 0, width: f.width, height: f.depth }),
      ...tableBackdrop(this.model.image, this.model.backdrop),
      ...this.features(f.features || []),
    ];
    /** Labels of the table itself, in the labels layer. */
    const fixed = [];
    if (f.columns && f.rows) {
      const cw = f.width / f.columns;
      const rh = f.depth / f.rows;
      for (let c = 1; c < f.columns; c++) parts.push(s('line.grid', { x1: c * cw, y1: 0, x2: c * cw, y2: f.depth, 'vector-effect': 'non-scaling-stroke' }));
      for (let r = 1; r < f.rows; r++) parts.push(s('line.grid', { x1: 0, y1: r * rh, x2: f.width, y2: r * rh, 'vector-effect': 'non-scaling-stroke' }));
      for (let c = 0; c < f.columns; c++) {
        for (let r = 0; r < f.rows; r++) {
          // In the square's corner that is top left on the screen.
          const b = this.turn.box(c * cw, r * rh, (c + 1) * cw, (r + 1) * rh);
          const m = this.fixedMark('text.lbl.square', String.fromCharCode(65 + c) + (r + 1), { x: b.x, y: b.y }, { r: 0.35, slots: ['br'], prio: 5, avoid: true });
          m.el.dataset.square = m.el.textContent;
          fixed.push(m);
        }
      }
    }
    parts.push(s('rect.edge', { x: 0, y: 0, width: f.width, height: f.depth, 'vector-effect': 'non-scaling-stroke' }));
    // inches along the north and west edges every 12, upright on the screen
    for (let x = 0; x <= f.width + 1e-9; x += 12) fixed.push(this.fixedMark('text.lbl.scale', num(x), this.turn.at(x, -1.4), { slots: ['c'], prio: 4 }));
    for (let y = 0; y <= f.depth + 1e-9; y += 12) fixed.push(this.fixedMark('text.lbl.scale', num(y), this.turn.at(-1.6, y), { slots: ['c'], prio: 4 }));
    // base edges, in the margin outside each
    const vertical = [];
    for (const sd of this.model.sides || []) {
      const pos = edgeLabel(f, sd.edge);
      if (!pos) continue;
      const at = this.turn.at(pos.x, pos.y);
      const text = `${sd.name} — base edge`;
      const across = this.turn.at(pos.x + pos.nx, pos.y + pos.ny);
      if (Math.abs(across.x - at.x) > 0.5) {
        // on the left or right of the screen: written along the edge
        vertical.push(s(`text.lbl.base.c-${colour(sd.id)}`, { x: at.x, y: at.y, 'text-anchor': 'middle', 'dominant-baseline': 'middle', transform: `rotate(${across.x < at.x ? 90 : -90} ${at.x} ${at.y})`, dataset: { edge: sd.edge }, text }));
        continue;
      }
      const m = this.fixedMark(`text.lbl.base.c-${colour(sd.id)}`, text, at, { slots: ['c'], prio: 0, keep: true });
      m.el.dataset.edge = sd.edge;
      fixed.push(m);
    }
    parts.push(...this.tableMarks());
    fill(this.layers.table, ...parts);
    const layer = this.layers.labels;
    fill(layer, ...fixed.map((m) => m.el), ...vertical);
    this.labels.setFixed(fixed);
  }

  /**
   * What a rule set marks on its table besides the pieces (where its
   * reserves will come on, say), drawn with the table: none here.
   * @returns {SVGElement[]}
   */
  tableMarks() { return []; }

  drawReach() {
    const m = this.model;
    const groups = new Map();
    if (m.showReach && m.reach > 0) {
      // The pieces that engage (the server says which), the enemy's only
      // for a side's seat.
      const reaching = new Set(m.reaching);
      for (const u of m.state.units) {
        if (!reaching.has(u.id)) continue;
        if (m.seat.role !== 'umpire' && u.side === m.seat.side) continue;
        if (!groups.has(u.side)) groups.set(u.side, []);
        groups.get(u.side).push(s('circle', { cx: u.at[0], cy: u.at[1], r: m.reach }));
      }
    }
    const gs = [];
    for (const [side, circles] of groups) {
      gs.push(s(`g.reach.c-${m.colour(side)}`, { dataset: { side } }, s('title', { text: `Engagement range: ${num(m.reach)}″ from the units of ${side} that engage` }), ...circles));
    }
    fill(this.layers.reach, ...gs);
  }

  drawRanges() {
    const m = this.model;
    const out = [];
    if (m.showRanges) {
      for (const g of m.state.generals) {
        if (!g['on-table'] || !this.commanding(g) || !(g.range > 0)) continue;
        if (m.seat.role !== 'umpire' && g.side !== m.seat.side) continue;
        const sel = m.selected && m.selected.kind === 'general' && m.selected.id === g.id;
        out.push(s(`circle.range.c-${m.colour(g.side)}${sel ? '.on' : ''}`, { cx: g.at[0], cy: g.at[1], r: g.range, 'vector-effect': 'non-scaling-stroke', dataset: { range: g.id } }));
      }
    }
    fill(this.layers.ranges, ...out);
  }

  drawObjectives() {
    const m = this.model;
    const byOrder = new Map();
    // current orders of own formations (one flag per order)
    for (const f of m.state.formations || []) {
      const o = f.order;
      if (!o || !o.objective) continue;
      if (m.seat.role !== 'umpire' && f.side !== m.seat.side) continue;
      if (!byOrder.has(o.id)) byOrder.set(o.id, { o, side: f.side, pending: false, status: 'active', text: m.words.acting[f.id] });
    }
    // orders on their way
    for (const o of m.state.orders || []) {
      if (!o.objective || byOrder.has(o.id)) continue;
      if (!['carried', 'delivered', 'read'].includes(o.status)) continue;
      byOrder.set(o.id, { o, side: o.side, pending: true, status: o.status, text: m.words.orders[o.id] });
    }
    const out = [];
    for (const { o, side, pending, status, text } of byOrder.values()) {
      const [x, y] = o.objective;
      const who = (o.for || []).map((id) => id).join(', ');
      out.push(s(`g.flag.c-${m.colour(side)}${pending ? '.pending' : ''}`, { transform: `translate(${x} ${y}) ${this.erect(0, 0) || ''}`, dataset: { order: o.id } },
        s('title', { text: `${o.id}: ${text || o.kind} for ${who} — ${status}` }),
        s('line.pole', { x1: 0, y1: 0, x2: 0, y2: -2.6 }),
        s('path.pennant', { d: 'M0 -2.6 L1.9 -2.05 L0 -1.5 Z' }),
        s('circle.foot', { r: 0.22 }),
        // the flag stands upright on the screen: its label in its frame
        this.mark('text.lbl.flag-lbl', `${who} ${o.kind}${pending ? ` (${status})` : ''}`, [x, y], { parent: [x, y], spin: -this.turn.deg, r: 0.4, slots: ['br', 'bl', 'r', 'b'], prio: 1 }),
      ));
    }
    fill(this.layers.objectives, ...out);
  }

  /**
   * Fog of war: where the seat last saw each enemy piece it no longer
   * spots, as the server lists them (state.lost), each a faded, dashed
   * outline labelled with the turn it was seen on. A ghost is not a
   * piece: it carries no data-unit, data-general or data-messenger, so a
   * tap on it is a tap on the table, and nothing offers it a command.
   */
  drawGhosts() {
    const m = this.model;
    fill(this.layers.ghosts, ...(m.state.lost || []).map((g) => {
      const label = ghostName(g, m.names);
      let body;
      if (g.kind === 'general') {
        body = [s('circle.body', { r: GHOST_R }), s('circle.mark-dot', { r: GHOST_R * 0.38 })];
      } else if (g.kind === 'messenger') {
        body = [s('path.body', { d: 'M0 -0.75 L0.75 0 L0 0.75 L-0.75 0 Z' })];
      } else {
        const [w, d] = GHOST;
        body = [s('rect.body', { x: -w / 2, y: -d / 2, width: w, height: d }), ...typeMarks(g.kind, w, d)];
      }
      const r = g.kind === 'general' || g.kind === 'messenger' ? { x: GHOST_R, y: GHOST_R } : this.extent(GHOST[0], GHOST[1]);
      const text = this.mark('text.lbl.lbl-ghost', '', g.at, { parent: g.at, r, slots: ['b', 't', 'r', 'l'], prio: 3, avoid: true });
      text.append(s('tspan.ghost-name', { text: `${label} · ` }), s('tspan.ghost-seen', { text: `last seen T${g.turn}` }));
      return s(`g.ghost.c-${m.colour(g.side)}`, { transform: `translate(${g.at[0]} ${g.at[1]})`, dataset: { ghost: g.id, side: g.side, turn: g.turn } },
        s('title', { text: ghostTitle(g, label) }),
        ...body,
        text,
      );
    }));
  }

  drawUnits() {
    const m = this.model;
    const out = [];
    const own = this.unitPieces();
    for (const u of m.state.units) {
      if (!u['on-table']) continue;
      const at = (m.pending && m.pending[u.id]) || u.at;
      const drawn = own(u, at);
      if (drawn !== undefined) { if (drawn) out.push(drawn); continue; }
      const [w, d] = this.unitSize(u);
      const ref = { kind: 'unit', id: u.id };
      const cls = ['piece', 'unit', `c-${m.colour(u.side)}`, `t-${u.type}`, `f-${u.formation}`, ...this.unitClasses(u)];
      if (this.movable(ref)) cls.push('movable');
      if (isSel(m, ref)) cls.push('selected');
      if (this.ticked(ref)) cls.push('ticked');
      const marks = typeMarks(u.type, w, d);
      const r = this.extent(w, d, u.facing || 0);
      this.obstacle(at, r);
      this.hit('unit', u.id, at);
      out.push(s('g', { class: cls.join(' '), transform: `translate(${at[0]} ${at[1]}) rotate(${u.facing || 0})`, dataset: this.pieceData(ref, u.side) },
        s('title', { text: this.unitTitle(u) }),
        s('rect.hit', { x: -Math.max(w, 1.6) / 2, y: -Math.max(d, 1.6) / 2, width: Math.max(w, 1.6), height: Math.max(d, 1.6) }),
        s('rect.body', { x: -w / 2, y: -d / 2, width: w, height: d }),
        ...marks,
        s('line.front', { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2 }),
        this.hatched(u) ? s('rect.rout', { x: -w / 2, y: -d / 2, width: w, height: d, fill: 'url(#hatch)' }) : null,
        // its id, shortened unless close: below it on the screen, or where there is room
        // its name, shortened unless close (its id where it has none):
        // below it on the screen, or where there is room
        this.unitLabel(u, at, { parent: at, spin: u.facing || 0, r }),
      ));
    }
    fill(this.layers.units, ...out);
  }

  /**
   * A unit's label: its short name (readable.js, shortName) from the
   * board's names, its full name when close; its id shortened where it
   * has no name. Laid out with the others, the seat's own first.
   * @param {any} u @param {number[]} at what it names
   * @param {{parent:number[], spin?:number, r:{x:number,y:number}}} o
   */
  unitLabel(u, at, o) {
    const m = this.model;
    const full = m.name(u.id);
    const named = full && full !== u.id;
    const short = named ? shortName(full) : shortId(u);
    return this.mark('text.lbl.lbl-unit', short, at, {
      ...o, slots: ['b', 't', 'r', 'l'], prio: this.prioOf(u.side) + 0.5, zoom: 'far', words: (z) => (z === 'close' ? (named ? full : u.id) : short),
      data: { unitName: u.id },
    });
  }

  /**
   * The width and depth of a unit's block, inches (front first): the
   * rule set's view sizes it by its formation; here, one size for all.
   * @returns {number[]}
   */
  unitSize(u) { return GHOST; }

  /** The classes that mark a unit's state on its piece (its status, say): none here. @returns {string[]} */
  unitClasses(u) { return []; }

  /** Whether a unit's piece is hatched (routed, disordered): not here. */
  hatched(u) { return false; }

  /**
   * The tooltip of a unit's block: its arm and formation, its formation's
   * name and side, where it stands and how far it moves; a rule set's view
   * adds its state (unitState) and the lines its rules mark (unitNotes).
   */
  unitTitle(u) {
    const m = this.model;
    const div = m.name(u.division);
    const state = this.unitState(u);
    const lines = [`${u.id} — ${u.type.replace('-', ' ')}, ${u.formation}${state ? `, ${state}` : ''}`, `${div !== u.division ? `${div} (${u.division})` : u.division} · ${u.side}`];
    lines.push(`at ${pt(u.at)}, facing ${deg(u.facing)}, speed ${num(u.speed)}″${u.moved ? `, moved ${tenth(u.moved)}″ this turn` : ''}`);
    lines.push(...this.unitNotes(u));
    return lines.join('\n');
  }

  /** A unit's state in words after its formation in its tooltip: none here. */
  unitState(u) { return ''; }

  /** Lines a rule set's view adds to a unit's tooltip: none here. @returns {string[]} */
  unitNotes(u) { return []; }

  /** Whether a general on the table is drawn: a rule set's view leaves out one it has replaced. */
  generalShown(g) { return !!g['on-table']; }

  /** Whether a general on the table commands (his range is drawn): a rule set's view leaves out a fallen one. */
  commanding(g) { return true; }

  /**
   * The kind of formation a general commands (it sizes his marker), by
   * the kinds of the formations drawn.
   * @param {any} g @param {Object<string,string>} kindOf
   */
  generalKind(g, kindOf) { return kindOf[g.commands] || 'division'; }

  /**
   * How a rule set's view marks a general: classes on his piece and
   * where he is drawn, off his point (beside the unit he is with).
   * @returns {{classes:string[], offset?:number[]}}
   */
  generalMarks(g) { return { classes: [] }; }

  /** The tooltip of a general's marker. @param {any} g @param {string} kind */
  generalTitle(g, kind) {
    const m = this.model;
    const f = m.name(g.commands);
    return `${g.name || g.id} — ${kind === 'army' ? 'army commander' : `commands ${f !== g.commands ? `${f} (${g.commands})` : g.commands}`}\n${g.side}`;
  }

  /**
   * The closest zoom at which a general's name shows, by the kind of
   * formation he commands: a division's from mid zoom here, the others'
   * always.
   * @param {string} kind
   */
  generalZoom(kind) { return GENERAL_ZOOM[kind] || 'far'; }

  /** Whether the view draws units by the footprints the board gives (FootprintView). */
  get footprints() { return false; }

  /**
   * How a view of another kind draws a unit itself: the function returns
   * its piece, null to leave it out, or undefined to draw it as a block
   * of its formation.
   * @returns {(u:any, at:number[]) => SVGElement|null|undefined}
   */
  unitPieces() { return () => undefined; }

  drawGenerals() {
    const m = this.model;
    const kindOf = {};
    for (const f of m.state.formations || []) kindOf[f.id] = f.kind;
    const out = [];
    for (const g of m.state.generals) {
      if (!this.generalShown(g)) continue;
      let at = (m.pending && m.pending[g.id]) || g.at;
      const marks = this.generalMarks(g);
      if (marks.offset) at = [at[0] + marks.offset[0], at[1] + marks.offset[1]];
      const kind = this.generalKind(g, kindOf);
      const r = GENERAL_R[kind] || 0.6;
      const ref = { kind: 'general', id: g.id };
      const cls = ['piece', 'general', `c-${m.colour(g.side)}`, `k-${kind}`, ...marks.classes];
      if (this.movable(ref)) cls.push('movable');
      if (isSel(m, ref)) cls.push('selected');
      if (this.ticked(ref)) cls.push('ticked');
      const label = g.name || g.id;
      const rr = kind === 'army' ? r + 0.35 : r;
      this.obstacle(at, { x: rr, y: rr });
      this.hit('general', g.id, at);
      out.push(s('g', { class: cls.join(' '), transform: `translate(${at[0]} ${at[1]})`, dataset: this.pieceData(ref, g.side) },
        s('title', { text: this.generalTitle(g, kind) }),
        s('circle.hit', { r: r + 0.25 }),
        kind === 'army' ? s('circle.outer', { r: r + 0.35 }) : null,
        s('circle.body', { r }),
        s('circle.pip', { r: r * 0.38 }),
        // his name first of all labels, kept whatever is in the way, and
        // never cut at the table's edge
        this.mark(`text.lbl.lbl-gen${kind === 'division' ? '.lbl-div' : ''}`, label, at, {
          parent: at, r: rr, slots: ['r', 'l', 't', 'b', 'tr', 'br', 'tl', 'bl'], prio: 0, keep: true, inside: true, zoom: this.generalZoom(kind),
        }),
      ));
    }
    fill(this.layers.generals, ...out);
  }

  drawMessengers() {
    const m = this.model;
    const routes = [];
    const out = [];
    const gen = {};
    for (const g of m.state.generals) gen[g.id] = g;
    for (const ms of m.state.messengers || []) {
      const own = m.seat.role === 'umpire' || ms.side === m.seat.side;
      const to = ms.to ? gen[ms.to] : null;
      const eta = m.etas ? m.etas[ms.id] : undefined;
      if (own && to) {
        routes.push(s(`g.route.c-${m.colour(ms.side)}`, { dataset: { route: ms.id } },
          s('line', { x1: ms.at[0], y1: ms.at[1], x2: to.at[0], y2: to.at[1], 'vector-effect': 'non-scaling-stroke' }),
          s('circle', { cx: to.at[0], cy: to.at[1], r: 0.3 }),
        ));
      }
      const ref = { kind: 'messenger', id: ms.id };
      const title = own
        ? `Messenger ${ms.id}${ms.order ? ` carrying ${ms.order}` : ''}${to ? ` to ${m.name(to.id)}` : ''}; rides ${num(ms.speed)}″ a turn${eta ? `; arrives turn ${eta}` : ''}`
        : `Enemy messenger ${ms.id}: what it carries, and to whom, is hidden`;
      this.obstacle(ms.at, { x: 0.75, y: 0.75 });
      this.hit('messenger', ms.id, ms.at);
      out.push(s(`g.piece.messenger.c-${m.colour(ms.side)}${own ? '.own' : '.enemy'}${isSel(m, ref) ? '.selected' : ''}`,
        { transform: `translate(${ms.at[0]} ${ms.at[1]})`, dataset: { messenger: ms.id, side: ms.side } },
        s('title', { text: title }),
        s('circle.hit', { r: 0.9 }),
        s('path.body', { d: 'M0 -0.75 L0.75 0 L0 0.75 L-0.75 0 Z' }),
        own ? this.mark('text.lbl.lbl-msg', `${to ? '→ ' + m.name(to.id) : ms.id}${eta ? ` · turn ${eta}` : ''}`, ms.at, { parent: ms.at, r: 0.8, slots: ['r', 'l', 'b', 't'], prio: 1 }) : null,
      ));
    }
    fill(this.layers.routes, ...routes);
    fill(this.layers.messengers, ...out);
  }

  drawPick() {
    const m = this.model;
    const p = m.objective;
    if (!p) { fill(this.layers.pick); return; }
    const sq = squareOf(m.field, p);
    fill(this.layers.pick, s('g.pick', { transform: `translate(${p[0]} ${p[1]})` },
      s('circle', { r: 1.4, 'vector-effect': 'non-scaling-stroke' }),
      s('line', { x1: -2.4, y1: 0, x2: 2.4, y2: 0, 'vector-effect': 'non-scaling-stroke' }),
      s('line', { x1: 0, y1: -2.4, x2: 0, y2: 2.4, 'vector-effect': 'non-scaling-stroke' }),
      this.mark('text.lbl.pick-lbl', `${pt(p)}${sq ? ' ' + sq : ''}`, p, { parent: p, r: 1.4, slots: ['tr', 'br', 'tl', 'bl'], prio: -1, keep: true }),
    ));
  }

  /** Label priority of a piece of side: the seat's own first, then the others'. */
  prioOf(side) {
    const m = this.model;
    return m.seat.role === 'umpire' || side === m.seat.side ? 1 : 2;
  }

  /**
   * The hit area of a piece that may be small on the screen: at least
   * 26 pixels square at any zoom (its size is in the CSS, from --k),
   * under every piece so that a piece's own body always wins.
   * @param {string} kind @param {string} id @param {number[]} at its middle
   */
  hit(kind, id, at) {
    this.hits.push(s('rect.hit-min', { transform: `translate(${at[0]} ${at[1]})`, dataset: { hit: `${kind}:${id}` } }));
  }

  drawHits() { fill(this.layers.hits, ...this.hits); }

  /** The key's items for the pieces: the arms, generals and messengers. @returns {HTMLElement[]} */
  legendKey() {
    return [lg('lg-inf', 'infantry'), lg('lg-lc', 'light cav.'), lg('lg-hc', 'heavy cav.'), lg('lg-art', 'artillery'), lg('lg-gen', 'general'), lg('lg-msg', 'messenger')];
  }

  /** The key under the map: the pieces, and the kinds of terrain on this table. */
  legend() {
    const el = document.getElementById('legend');
    if (!el) return;
    const m = this.model;
    const types = [...new Set((m.field.features || []).map((f) => f.type))];
    const key = this.legendKey();
    const sig = JSON.stringify([!!this.footprints, types]);
    if (el.dataset.sig === sig) return;
    el.dataset.sig = sig;
    fill(el, ...key, ...types.map((t) => h('span.lg-item', { dataset: { terrain: t } }, swatch(t), TERRAIN_WORDS[t] || t.replace(/-/g, ' '))));
  }
}

/** An item of the key: a mark and its words. */
export function lg(cls, words) {
  return h('span.lg-item', null, h(`span.lg.${cls}`), words);
}

/**
 * The scenario's backdrop image under a table (space.image, fetched into
 * href): placed by its pixels per inch and its top-left corner in inches.
 * @param {{scale?:number, at?:number[], width:number, height:number}|undefined} im
 * @param {string|undefined} href
 */
export function tableBackdrop(im, href) {
  if (!im || !href || !(im.scale > 0)) return [];
  const at = im.at || [0, 0];
  return [s('image.backdrop', { href, x: at[0], y: at[1], width: im.width / im.scale, height: im.height / im.scale, preserveAspectRatio: 'none' })];
}

/** A swatch of a kind of table terrain, drawn as on the map (inches). */
function swatch(type) {
  const box = s('svg.lg-sw', { viewBox: '0 0 4 2.6', 'aria-hidden': 'true' });
  const g = s('g', { class: `ft-${type}` });
  if (type === 'linear-obstacle' || type === 'river' || type === 'road') {
    g.append(s('path.ft-line', { d: 'M0.2 1.9 L1.8 0.9 L3.8 1.3', 'vector-effect': 'non-scaling-stroke' }));
  } else {
    g.append(s('rect.ft-area', { x: 0.15, y: 0.15, width: 3.7, height: 2.3 }), s('rect.ft-pattern', { x: 0.15, y: 0.15, width: 3.7, height: 2.3, fill: `url(#pt-${type})` }));
    if (type === 'town') g.append(s('rect.ft-block', { x: 0.7, y: 0.6, width: 1.1, height: 0.9 }), s('rect.ft-block', { x: 2.1, y: 0.9, width: 1.2, height: 0.9 }));
  }
  box.append(g);
  return box;
}

/**
 * Points the compass under the map to north, the map turned by deg.
 * @param {number} deg
 */
export function compass(deg) {
  const c = document.getElementById('compass');
  if (!c) return;
  const needle = /** @type {HTMLElement} */ (c.querySelector('.needle'));
  if (needle) needle.style.transform = deg ? `rotate(${deg}deg)` : '';
  c.title = deg ? `North is ${deg === 180 ? 'at the bottom' : deg === 90 ? 'on the right' : 'on the left'}: the map is turned so that your base edge is at the bottom` : 'North is at the top';
}

/** @param {Element} el @returns {Ref|null} */
function refOf(el) {
  const d = /** @type {HTMLElement} */ (el).dataset;
  if (d.hit) {
    const i = d.hit.indexOf(':');
    return /** @type {Ref} */ ({ kind: d.hit.slice(0, i), id: d.hit.slice(i + 1) });
  }
  if (d.unit) return { kind: 'unit', id: d.unit };
  if (d.general) return { kind: 'general', id: d.general };
  if (d.messenger) return { kind: 'messenger', id: d.messenger };
  return null;
}

/** A unit's id without its division's: "a" for F-I-1-a. */
function shortId(u) {
  return u.id.startsWith(u.division + '-') ? u.id.slice(u.division.length + 1) : u.id;
}

export function isSel(m, ref) {
  return !!m.selected && m.selected.kind === ref.kind && m.selected.id === ref.id;
}

/** The marks of a unit's arm inside its block (NATO-like). */
function typeMarks(type, w, d) {
  const x0 = -w / 2 + 0.12, x1 = w / 2 - 0.12, y0 = -d / 2 + 0.12, y1 = d / 2 - 0.12;
  switch (type) {
    case 'infantry':
      return [s('line.mark', { x1: x0, y1: y0, x2: x1, y2: y1 }), s('line.mark', { x1: x0, y1: y1, x2: x1, y2: y0 })];
    case 'light-cavalry':
      return [s('line.mark', { x1: x0, y1: y1, x2: x1, y2: y0 })];
    case 'heavy-cavalry':
      return [s('line.mark.heavy', { x1: x0, y1: y1, x2: x1, y2: y0 })];
    case 'artillery':
      return [s('circle.mark-dot', { r: Math.min(w, d) * 0.22 })];
  }
  return [];
}

/**
 * The name of an enemy piece last seen: the board's name for it, else its id.
 * @param {{id:string}} g @param {Object<string,string>|undefined} names
 */
export function ghostName(g, names) {
  return (names && names[g.id]) || g.id;
}

/**
 * The tooltip of an enemy piece last seen.
 * @param {{id:string, side:string, kind:string, turn:number}} g @param {string} label
 */
export function ghostTitle(g, label) {
  return `${label}${label !== g.id ? ` (${g.id})` : ''} — ${g.kind.replace(/-/g, ' ')} · ${g.side}\nlast seen here on turn ${g.turn}; out of sight now`;
}

/** Where a side's base edge is named, in the margin, and the way out of the table there. */
function edgeLabel(f, edge) {
  switch (edge) {
    case 'north': return { x: f.width / 2, y: -2.8, nx: 0, ny: -1 };
    case 'south': return { x: f.width / 2, y: f.depth + 2.8, nx: 0, ny: 1 };
    case 'west': return { x: -3, y: f.depth / 2, nx: -1, ny: 0 };
    case 'east': return { x: f.width + 3, y: f.depth / 2, nx: 1, ny: 0 };
  }
  return null;
}
