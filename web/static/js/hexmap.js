// The hex map: an SVG whose user unit is a hex's radius (centre to
// corner). Draws the terrain the server sends with the board (terrain of
// each hex, elevation shading, hexside features, roads, labels), the
// counters stacked in their hexes with command states and order markers,
// the selected command unit's radius as shaded hexes, the hexes the
// selected unit can reach (from the server), and a path or line the
// command panel asks to show; pans and zooms; reports taps on pieces and
// hexes. The page measures only to draw: what is legal and what it costs
// comes from the server. The map is turned so that the seat's own base
// edge is at the bottom of the screen (a map turned a quarter shows its
// hexes pointy side up); counters and text stay upright, and labels are
// laid out so that none hides another.

import { s, h, fill, zoomed, showView, mapPoint } from './dom.js';
import { ghostName, ghostTitle, compass } from './map.js';
import { Turn, Labels, turnOf, viewMoved, layLabels, fillView, shortName, revealed } from './readable.js';

const R3 = Math.sqrt(3);
const MARGIN = 1.5;

/** Fill of each terrain, by name. */
const TERRAIN = {
  clear: '#ece6c8', 'light-cover': '#d3dca2', farmette: '#ddbf8f', woods: '#7fa467', town: '#b3aba0', 'frozen-wetlands': '#d5e6ee',
  rough: '#d9cfae', marsh: '#c9ddd3',
};

/** Stroke of each hexside feature, by name: colour, width. */
const SIDES = {
  brook: ['#4d8fd1', 0.09], stream: ['#2f6fb8', 0.16], 'major-stream': ['#1f4f96', 0.26],
  'light-cover-side': ['#5e8b3a', 0.12], steep: ['#7a4b22', 0.2],
};

/** Road strokes by kind: colour, width, dash. */
const ROADS = { 'major-road': ['#8a6d3b', 0.2, ''], 'minor-road': ['#9c8455', 0.12, '0.25 0.15'] };

/** The pixels kept free of the map when it is fitted: the map tools on the left. */
const PAD = { left: 58, top: 8, right: 8, bottom: 8 };

/**
 * How much bigger than their drawn size the counters stand in their hex
 * (a unit's counter is then 1.05 by 0.75 of a hex's radius, inside the
 * hex whichever way the map is turned).
 */
const COUNTER = 1.25;

/**
 * The pixels a hex's radius takes at the least in the view the page opens
 * on: a unit's counter is then 24 pixels high or more (0.75 radius).
 */
const MIN_RADIUS_PX = 33;

/** Terrains drawn with a pattern over their colour (play.html's hp-*). */
const PATTERNED = ['woods', 'light-cover', 'farmette', 'town', 'marsh', 'frozen-wetlands', 'rough'];

/**
 * @typedef {{kind:'unit'|'general'|'hq', id:string}} Ref
 * @typedef {{
 *   space:any, state:any, extra:any, names?:Object<string,string>, seat:{role:string, side?:string},
 *   colour:(side:string)=>string, name:(id:string)=>string,
 *   selected:Ref|null, picking:boolean,
 *   overlay:{path:number[][], note?:string, ok:boolean}|null,
 *   showRanges:boolean, backdrop?:string,
 * }} HexModel
 *
 * space.edge is the seat's base edge, turned to the bottom of the screen.
 */

export class HexMapView {
  /**
   * @param {SVGSVGElement} svg
   * @param {{onPick:(hex:number[])=>void, onSelect:(r:Ref|null)=>void}} hooks
   */
  constructor(svg, hooks) {
    this.svg = svg;
    this.hooks = hooks;
    this.layers = {};
    for (const g of svg.querySelectorAll('g[id^="layer-"]')) this.layers[g.id.slice(6)] = g;
    /** The group of every layer that turns with the map. */
    this.vp = /** @type {SVGGElement} */ (svg.querySelector('#viewport'));
    /** @type {HexModel|null} */
    this.model = null;
    this.view = { x: 0, y: 0, w: 40, h: 30 };
    this.fitted = false;
    this.drawn = '';
    this.turn = new Turn(0, 0, 0);
    this.labels = new Labels();
    this.laidAt = 0;
    this.layoutSoon = 0;
    /** @type {Map<number,{x:number,y:number}>} */
    this.pointers = new Map();
    this.gesture = null;
    this.userMoved = false;
    this.listen();
    new ResizeObserver(() => { if (this.userMoved) this.applyView(); else this.fill(); }).observe(svg);
  }

  /** @param {HexModel} model */
  render(model) {
    const first = !this.model;
    this.model = model;
    this.hex = model.space.hex;
    const b = this.bounds(true);
    const turn = new Turn(turnOf(model.space.edge), b.x + b.w / 2, b.y + b.h / 2);
    if (turn.deg !== this.turn.deg || turn.cx !== this.turn.cx || turn.cy !== this.turn.cy) {
      this.turn = turn;
      if (turn.transform) this.vp.setAttribute('transform', turn.transform); else this.vp.removeAttribute('transform');
      this.fitted = false;
    }
    if (first || !this.fitted) { this.fill(); this.fitted = true; }
    const key = JSON.stringify([this.hex.columns, this.hex.rows, this.hex.layout, turn.deg, model.backdrop || '']);
    if (this.drawn !== key) { this.drawTerrain(); this.drawn = key; }
    this.marks = [];
    this.pieceBoxes = [];
    this.hits = [];
    this.loose = [];
    this.drawRanges();
    this.drawOverlay();
    this.drawGhosts();
    this.drawPieces();
    fill(this.layers.hits, ...this.hits);
    fill(this.names, ...this.loose);
    this.labels.set(this.marks);
    this.labels.setObstacles(this.pieceBoxes);
    this.layout();
    this.legend();
  }

  /**
   * The transform that sets upright what stands at map point c (a
   * counter, its text), inside the turned layers; null unturned.
   */
  upright(c) { return this.turn.upright(c.x, c.y); }

  /**
   * A label for what stands at c (a hex's centre, the frame of its
   * upright counter) plus (dx, dy) on the screen: its element lies in that
   * upright frame.
   * @param {string} tag @param {string} text @param {{x:number,y:number}} c @param {number} dx @param {number} dy
   * @param {{r?:number|{x:number,y:number}, slots?:string[], prio:number, keep?:boolean, inside?:boolean, zoom?:string, avoid?:boolean, loose?:boolean,
   *          words?:(zoom:string)=>string}} o
   *   loose: the element goes in the labels layer, not in c's counter
   */
  /** Label priority of a piece of side: the seat's own first, then the others'. */
  prioOf(side) {
    const m = this.model;
    return m.seat.role === 'umpire' || side === m.seat.side ? 1 : 2;
  }

  mark(tag, text, c, dx, dy, o) {
    const el = /** @type {SVGTextElement} */ (s(tag, { text }));
    const base = this.turn.at(c.x, c.y);
    // the upright frame of c: SVG point = point - c + turned c; in the
    // labels layer (loose), the SVG's own frame
    const frame = o.loose ? { x: 0, y: 0 } : { x: base.x - c.x, y: base.y - c.y };
    this.marks.push({
      el, at: { x: base.x + dx, y: base.y + dy }, base: frame, r: o.r, slots: o.slots, prio: o.prio, keep: o.keep,
      inside: o.inside ? this.bounds() : null, zoom: o.zoom, avoid: o.avoid, text: o.words,
    });
    if (o.loose) this.loose.push(el);
    return el;
  }

  /** Keeps labels of low priority off a counter: its box on the screen around c + (dx, dy). */
  obstacle(c, dx, dy, rx, ry) {
    const p = this.turn.at(c.x, c.y);
    this.pieceBoxes.push({ x: p.x + dx - rx, y: p.y + dy - ry, w: 2 * rx, h: 2 * ry });
  }

  /**
   * The transform of a counter standing in its hex at c: upright on the
   * screen, and COUNTER times its drawn size about c.
   */
  counterAt(c) {
    return `${this.upright(c) || ''} translate(${c.x} ${c.y}) scale(${COUNTER}) translate(${-c.x} ${-c.y})`.trim();
  }

  /** The hit area of a piece, at least 26 pixels square (CSS), at c + (dx, dy) upright. */
  hit(kind, id, c, dx, dy) {
    this.hits.push(s('rect.hit-min', { transform: `${this.upright(c) || ''} translate(${c.x + dx} ${c.y + dy})`, dataset: { hit: `${kind}:${id}` } }));
  }

  // ---- geometry ------------------------------------------------------------

  flat() { return this.hex.layout.endsWith('-q'); }

  /** The centre of hex [column, row] as printed. @param {number[]} p */
  centre(p) {
    const hx = this.hex;
    const c = p[0] - hx.first, r = p[1] - hx.first;
    if (this.flat()) {
      const low = hx.layout === 'odd-q' ? (c & 1) : 1 - (c & 1);
      return { x: 1.5 * c, y: R3 * (r + 0.5 * low) };
    }
    const right = hx.layout === 'odd-r' ? (r & 1) : 1 - (r & 1);
    return { x: R3 * (c + 0.5 * right), y: 1.5 * r };
  }

  /**
   * The scenario's backdrop image (space.image, fetched into the model's
   * backdrop), fitted to the page's hexes: the image's grid (the first
   * hex's centre x0, y0 and the steps dx, dy between centres, in pixels)
   * maps onto the page's by a scale on each axis and a shift.
   */
  backdrop() {
    const im = this.model && this.model.space.image, href = this.model && this.model.backdrop;
    if (!im || !href || !(im.dx > 0) || !(im.dy > 0)) return [];
    // Page units between neighbouring centres: 1.5 across columns and R3
    // down a column (flat-topped); R3 along a row and 1.5 across rows.
    const kx = (this.flat() ? 1.5 : R3) / im.dx, ky = (this.flat() ? R3 : 1.5) / im.dy;
    const c = this.centre([this.hex.first, this.hex.first]);
    return [s('image.backdrop', { href, x: c.x - (im.x0 || 0) * kx, y: c.y - (im.y0 || 0) * ky, width: im.width * kx, height: im.height * ky, preserveAspectRatio: 'none' })];
  }

  /** The six corners of a hex centred at c, as an SVG points list. */
  corners(c, k = 1) {
    const out = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i + (this.flat() ? 0 : 30));
      out.push(`${(c.x + k * Math.cos(a)).toFixed(3)},${(c.y + k * Math.sin(a)).toFixed(3)}`);
    }
    return out.join(' ');
  }

  /** The printed label of [column, row]. */
  label(p) {
    const d = this.hex.digits;
    return String(p[0]).padStart(d, '0') + String(p[1]).padStart(d, '0');
  }

  /** Every hex of the map as [column, row]. */
  *hexes() {
    const hx = this.hex;
    for (let r = 0; r < hx.rows; r++) for (let c = 0; c < hx.columns; c++) yield [c + hx.first, r + hx.first];
  }

  /**
   * The map's box: in the SVG's frame (turned), or as drawn (flat true).
   * @param {boolean} [flat]
   */
  bounds(flat) {
    const hx = this.hex || { columns: 30, rows: 20, first: 1, layout: 'odd-q' };
    if (!this.hex) return { x: -1, y: -1, w: 46, h: 36 };
    const a = this.centre([hx.first, hx.first]);
    const b = this.centre([hx.first + hx.columns - 1, hx.first + hx.rows - 1]);
    const box = { x: Math.min(a.x, b.x) - 1, y: Math.min(a.y, b.y) - 1, w: Math.abs(b.x - a.x) + 2 + R3, h: Math.abs(b.y - a.y) + 2 + R3 };
    return flat ? box : this.turn.box(box.x, box.y, box.x + box.w, box.y + box.h);
  }

  // ---- view: pan and zoom ----------------------------------------------------

  /**
   * The view the page opens on (readable.js, fillView): the map fills
   * its pane, every piece in sight where the counters stay big enough to
   * read (MIN_RADIUS_PX), else centred on the seat's own pieces; fit
   * shows the whole map.
   */
  fill() {
    const m = this.model;
    if (!m || !this.hex) { this.fit(); return; }
    const pts = [], own = [];
    for (const list of [m.state.units, m.state.leaders]) {
      for (const p of list || []) {
        if (!p['on-table'] || p.gone) continue;
        const c = this.centre(p.at);
        const q = this.turn.at(c.x, c.y);
        pts.push(q);
        if (m.seat.role === 'umpire' || p.side === m.seat.side) own.push(q);
      }
    }
    const b = this.bounds();
    const v = fillView({ x: b.x - MARGIN, y: b.y - MARGIN, w: b.w + 2 * MARGIN, h: b.h + 2 * MARGIN }, this.svg.getBoundingClientRect(), PAD, pts, own, 1.5, MIN_RADIUS_PX);
    if (!v) { this.fit(); return; }
    this.view = v;
    this.userMoved = false;
    this.applyView();
  }

  /**
   * Pans the view so that a piece is in sight, if it is not: one chosen
   * in a panel is shown on the map.
   * @param {Ref} ref
   */
  reveal(ref) {
    const m = this.model;
    if (!m || !this.hex) return;
    const list = ref.kind === 'unit' ? m.state.units : ref.kind === 'general' ? m.state.leaders : null;
    const p = list ? (list || []).find((x) => x.id === ref.id) : null;
    const at = p ? p.at : ref.kind === 'hq' ? ((m.extra || {}).hq || {})[ref.id] : null;
    if (!at) return;
    const c = this.centre(at);
    const v = revealed(this.view, this.turn.at(c.x, c.y), Math.min(this.view.w, this.view.h) * 0.05);
    if (v === this.view) return;
    this.view = v;
    this.userMoved = true;
    this.applyView();
  }

  fit() {
    const b = this.bounds();
    const w = b.w + 2 * MARGIN, d = b.h + 2 * MARGIN;
    const r = this.svg.getBoundingClientRect();
    const padW = PAD.left + PAD.right, padH = PAD.top + PAD.bottom;
    if (r.width > padW * 2 && r.height > padH * 2) {
      const k = Math.min((r.width - padW) / w, (r.height - padH) / d);
      const vw = r.width / k, vh = r.height / k;
      this.view = { x: b.x - MARGIN - Math.max(PAD.left / k, (vw - w) / 2), y: b.y - MARGIN - PAD.top / k - (vh - padH / k - d) / 2, w: vw, h: vh };
    } else {
      this.view = { x: b.x - MARGIN, y: b.y - MARGIN, w, h: d };
    }
    this.userMoved = false;
    this.applyView();
  }

  zoom(factor, about) {
    const b = this.bounds();
    this.view = zoomed(this.view, factor, about, 4, (Math.max(b.w, b.h) + 2 * MARGIN) * 2);
    this.userMoved = true;
    this.applyView();
  }

  applyView() {
    showView(this.svg, this.view, [40, 22, 12], 20);
    // from a hex's centre to the next one's is the root of 3 radii
    viewMoved(this, { unit: 'hexes', per: R3, steps: [1, 2, 3, 5, 10, 20, 50] }, compass);
  }

  /** Lays the labels out for the zoom shown. */
  layout() { layLabels(this); }

  /** The map point (hex radii, as drawn) under a screen point. */
  toMap(cx, cy) { return mapPoint(this.vp, cx, cy); }

  /** The point of the SVG's frame (the view box's) under a screen point. */
  svgPoint(cx, cy) { return mapPoint(this.svg, cx, cy); }

  /** The client point of hex [column, row], for tests and tools. */
  toScreen(p) {
    const c = this.centre(p);
    return mapPoint(this.vp, c.x, c.y, true);
  }

  /** The hex [column, row] under a map point, or null off the map. */
  hexAt(x, y) {
    let best = null, bd = Infinity;
    // The nearest centre: a hex's centre is nearest every point inside it.
    for (const p of this.hexes()) {
      const c = this.centre(p);
      const d = (c.x - x) ** 2 + (c.y - y) ** 2;
      if (d < bd) { bd = d; best = p; }
    }
    return bd <= 1 ? best : null;
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      this.zoom(Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015)), this.svgPoint(ev.clientX, ev.clientY));
    }, { passive: false });
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0 && ev.pointerType === 'mouse') return;
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      try { svg.setPointerCapture(ev.pointerId); } catch { /* synthetic pointers */ }
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        this.gesture = { type: 'pinch', dist: Math.hypot(a.x - b.x, a.y - b.y) };
        return;
      }
      // A piece, or the hit area around a small one (layer-hits).
      const el = /** @type {Element} */ (ev.target).closest('[data-unit],[data-general],[data-hq],[data-hit]');
      const hit = el && el.dataset.hit ? el.dataset.hit.indexOf(':') : -1;
      const ref = !el ? null : hit >= 0 ? { kind: el.dataset.hit.slice(0, hit), id: el.dataset.hit.slice(hit + 1) }
        : el.dataset.unit ? { kind: 'unit', id: el.dataset.unit }
          : el.dataset.general ? { kind: 'general', id: el.dataset.general } : { kind: 'hq', id: el.dataset.hq };
      this.gesture = { type: 'pan', ref, sx: ev.clientX, sy: ev.clientY, lx: ev.clientX, ly: ev.clientY, moved: false };
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!this.pointers.has(ev.pointerId)) return;
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      const g = this.gesture;
      if (!g) return;
      if (g.type === 'pinch') {
        if (this.pointers.size < 2) return;
        const [a, b] = [...this.pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (g.dist > 0 && d > 0) this.zoom(d / g.dist, this.svgPoint((a.x + b.x) / 2, (a.y + b.y) / 2));
        g.dist = d;
        return;
      }
      if (!g.moved && Math.hypot(ev.clientX - g.sx, ev.clientY - g.sy) < 5) return;
      g.moved = true;
      const m = svg.getScreenCTM();
      const k = m ? 1 / m.a : 0.1;
      this.view.x -= (ev.clientX - g.lx) * k;
      this.view.y -= (ev.clientY - g.ly) * k;
      g.lx = ev.clientX;
      g.ly = ev.clientY;
      this.userMoved = true;
      this.applyView();
    });
    const up = (ev, cancelled) => {
      this.pointers.delete(ev.pointerId);
      const g = this.gesture;
      if (!g) return;
      if (g.type === 'pinch') { if (this.pointers.size === 0) this.gesture = null; return; }
      this.gesture = null;
      if (cancelled || g.moved) return;
      const p = this.toMap(ev.clientX, ev.clientY);
      const hex = this.hexAt(p.x, p.y);
      if (this.model && this.model.picking && hex) { this.hooks.onPick(hex); return; }
      if (g.ref) { this.hooks.onSelect(g.ref); return; }
      if (hex) this.hooks.onPick(hex);
      else this.hooks.onSelect(null);
    };
    svg.addEventListener('pointerup', (ev) => up(ev, false));
    svg.addEventListener('pointercancel', (ev) => up(ev, true));
  }

  // ---- drawing ---------------------------------------------------------------

  drawTerrain() {
    const t = this.hex.terrain;
    const cells = [], shade = [], labels = [];
    let i = 0;
    for (const p of this.hexes()) {
      const c = this.centre(p);
      const name = t ? t.letters[t.hexes[i]] : 'clear';
      const level = t ? Number(t.levels[i]) : 0;
      cells.push(s('polygon.hx-cell', { points: this.corners(c), fill: TERRAIN[name] || '#eee', dataset: { hex: this.label(p), terrain: name } }));
      if (PATTERNED.includes(name)) shade.push(s('polygon.hx-pattern', { points: this.corners(c, 0.97), fill: `url(#hp-${name})` }));
      if (level > 0) shade.push(s('polygon.hx-level', { points: this.corners(c), 'fill-opacity': String(Math.min(0.45, 0.14 * level)), dataset: { level } }));
      if (name === 'town') shade.push(s('rect.hx-house', { x: c.x - 0.35, y: c.y - 0.05, width: 0.3, height: 0.25 }), s('rect.hx-house', { x: c.x + 0.05, y: c.y + 0.05, width: 0.3, height: 0.22 }));
      // its number at the top of the hex on the screen, where no label of
      // more weight or piece is
      const a = this.turn.at(c.x, c.y);
      const el = s('text.lbl.hx-lbl', { text: this.label(p), dataset: { label: this.label(p) } });
      labels.push({ el, at: { x: a.x, y: a.y - 0.6 }, base: { x: 0, y: 0 }, slots: ['c'], prio: 5, zoom: 'near', avoid: true });
      i++;
    }
    const sides = [];
    for (const sd of t ? t.sides : []) {
      const [a, b] = sd.hexes.map((p) => this.centre(p));
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
      const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy);
      const px = -dy / len * 0.5, py = dx / len * 0.5;
      for (const what of sd.what) {
        const [col, w] = SIDES[what] || ['#333', 0.1];
        sides.push(s('line.hx-side', { x1: mx + px, y1: my + py, x2: mx - px, y2: my - py, stroke: col, 'stroke-width': w, dataset: { side: what } }));
      }
    }
    const roads = [];
    for (const rd of t ? t.roads : []) {
      const [a, b] = rd.hexes.map((p) => this.centre(p));
      const [col, w, dash] = ROADS[rd.what[0]] || ['#8a6d3b', 0.15, ''];
      roads.push(s('line.hx-road', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: col, 'stroke-width': w, 'stroke-dasharray': dash || null, dataset: { road: rd.what[0] } }));
    }
    // The scenario's backdrop under the hexes, which then only tint it.
    const back = this.backdrop();
    fill(this.layers.table, ...back, s('g.hx-cells', back.length ? { 'fill-opacity': '0.2' } : null, ...cells), s('g.hx-levels', null, ...shade), s('g.hx-roads', null, ...roads), s('g.hx-sides', null, ...sides));
    this.names = s('g.hx-names');
    fill(this.layers.labels, s('g.hx-lbls', null, ...labels.map((l) => l.el)), this.names);
    this.labels.setFixed(labels);
  }

  /** The selected command unit's radius as shaded hexes; the selected
   *  unit's reach (from the server). */
  /**
   * The board's movement box of the selected piece (movement left and the
   * hexes it reaches), if it has one: a unit's.
   * @param {any} sel
   */
  moverOf(sel) {
    return sel && sel.kind === 'unit' ? ((this.model.extra || {}).units || {})[sel.id] : null;
  }

  drawRanges() {
    const m = this.model;
    const out = [];
    const sel = m.selected;
    const x = m.extra || {};
    if (sel && sel.kind === 'general' && m.showRanges) {
      // The hexes within his radius, as the board lists them.
      for (const p of ((x.leaders || {})[sel.id] || {}).within || []) {
        out.push(s('polygon.hx-radius', { points: this.corners(this.centre(p), 0.96), dataset: { radius: this.label(p) } }));
      }
    }
    {
      const box = this.moverOf(sel);
      for (const c of (box && box.reach) || []) {
        const ctr = this.centre(c.at);
        out.push(s('polygon.hx-reach', { points: this.corners(ctr, 0.9), dataset: { reach: this.label(c.at) } }),
          s('text.hx-reachlbl', { x: ctr.x, y: ctr.y + 0.75, transform: this.upright(ctr), text: c.cost }));
      }
    }
    fill(this.layers.ranges, ...out);
  }

  drawOverlay() {
    const o = this.model.overlay;
    if (!o || !o.path || o.path.length < 1) { fill(this.layers.routes); return; }
    const pts = o.path.map((p) => this.centre(p));
    const line = pts.map((c) => `${c.x.toFixed(3)},${c.y.toFixed(3)}`).join(' ');
    const last = pts[pts.length - 1];
    fill(this.layers.routes,
      s('polyline', { points: line, class: o.ok ? 'hx-route' : 'hx-route bad' }),
      ...pts.map((c) => s('circle.hx-dot', { cx: c.x, cy: c.y, r: 0.12 })),
      o.note ? s('text.hx-routelbl', { x: last.x + 0.6, y: last.y - 0.6, transform: this.upright(last), text: o.note }) : null);
  }

  drawPieces() {
    const m = this.model;
    const st = m.state;
    const x = m.extra || {};
    const byHex = new Map();
    const put = (p, el) => { const k = this.label(p); if (!byHex.has(k)) byHex.set(k, []); byHex.get(k).push(el); };
    for (const u of st.units || []) if (u['on-table'] && !u.gone) put(u.at, { kind: 'unit', p: u });
    for (const l of st.leaders || []) if (l['on-table']) put(l.at, { kind: 'general', p: l });
    const units = [], gens = [];
    for (const [, list] of byHex) {
      const us = list.filter((e) => e.kind === 'unit');
      const gs = list.filter((e) => e.kind === 'general');
      us.forEach((e, k) => units.push(this.unitCounter(e.p, k, us.length)));
      gs.forEach((e, k) => gens.push(this.leaderCounter(e.p, k, gs.length, x)));
    }
    const hq = Object.entries(x.hq || {}).map(([side, p]) => {
      const c = this.centre(p);
      const sel = m.selected && m.selected.kind === 'hq' && m.selected.id === side;
      this.hit('hq', side, c, 0.42 * COUNTER, -0.6 * COUNTER);
      return s('g', { class: `hx-hq c-${m.colour(side)}${sel ? ' selected' : ''}`, dataset: { hq: side }, transform: this.counterAt(c) },
        s('title', { text: `${side}'s army headquarters` }),
        s('rect.hx-flag', { x: c.x + 0.2, y: c.y - 0.75, width: 0.45, height: 0.3 }), s('line.hx-pole', { x1: c.x + 0.2, y1: c.y - 0.75, x2: c.x + 0.2, y2: c.y - 0.2 }));
    });
    fill(this.layers.units, ...units);
    fill(this.layers.generals, ...gens, ...hq);
  }

  /**
   * Fog of war: where the seat last saw each enemy piece it no longer
   * spots, as the server lists them (state.lost): a faded, dashed counter
   * in its hex with its name and the turn it was seen on, several in a
   * hex fanned out as counters are. A ghost is not a piece: it carries no
   * data-unit or data-general, so a tap on it is a tap on its hex.
   */
  drawGhosts() {
    const m = this.model;
    const byHex = new Map();
    for (const g of m.state.lost || []) {
      const k = this.label(g.at);
      if (!byHex.has(k)) byHex.set(k, []);
      byHex.get(k).push(g);
    }
    const out = [];
    for (const [, list] of byHex) list.forEach((g, k) => out.push(this.ghostCounter(g, k, list.length)));
    fill(this.layers.ghosts, ...out);
  }

  /** An enemy piece last seen, the k-th of n in its hex. */
  ghostCounter(g, k, n) {
    const m = this.model;
    const c = this.centre(g.at);
    const dx = n > 1 ? (k - (n - 1) / 2) * 0.22 : 0, dy = n > 1 ? (k - (n - 1) / 2) * 0.18 : 0;
    const x = c.x + dx - 0.42, y = c.y + dy - 0.3;
    const label = ghostName(g, m.names);
    const sym = g.kind === 'general'
      ? [s('circle.sym', { cx: x + 0.42, cy: y + 0.2, r: 0.12 })]
      : g.kind === 'infantry'
        ? [s('line.sym', { x1: x + 0.27, y1: y + 0.08, x2: x + 0.57, y2: y + 0.3 }), s('line.sym', { x1: x + 0.57, y1: y + 0.08, x2: x + 0.27, y2: y + 0.3 })]
        : g.kind === 'artillery'
          ? [s('circle.sym', { cx: x + 0.42, cy: y + 0.19, r: 0.07 })]
          : [s('line.sym', { x1: x + 0.27, y1: y + 0.3, x2: x + 0.57, y2: y + 0.08 })];
    return s('g', { class: `hx-ghost c-${m.colour(g.side)}`, dataset: { ghost: g.id, side: g.side, turn: g.turn }, 'aria-label': `${label}, last seen turn ${g.turn}`, transform: this.counterAt(c) },
      s('title', { text: ghostTitle(g, label) }),
      s('rect.box', { x, y, width: 0.84, height: 0.6, rx: 0.05 }),
      ...sym,
      s('text.gname', { x: x + 0.42, y: y + 0.52, text: label }),
      s('text.gseen', { x: x + 0.42, y: y + 0.78, text: `last seen T${g.turn}` }));
  }

  // ---- what a rule set's view words on the counters -----------------------

  /** The word that marks a unit out of good order (its counter shaded), or none: none here. */
  unitDisorder(u) { return ''; }

  /** The short word for a unit's formation on its counter: the formation here. */
  shapeWord(u) { return u.formation; }

  /** The letter on a leader's counter: none here. */
  leaderLetter(l) { return ''; }

  /** The closest zoom at which a leader's name shows: always here. */
  leaderZoom(l) { return 'far'; }

  /** The words for a leader in the key under the map. */
  leaderKey() { return 'leader'; }

  unitCounter(u, k, n) {
    const m = this.model;
    const c = this.centre(u.at);
    const dx = n > 1 ? (k - (n - 1) / 2) * 0.22 : 0, dy = n > 1 ? (k - (n - 1) / 2) * 0.18 : 0;
    const x = c.x + dx - 0.42, y = c.y + dy - 0.3;
    const sel = m.selected && m.selected.kind === 'unit' && m.selected.id === u.id;
    const sym = u.type === 'infantry'
      ? [s('line.sym', { x1: x + 0.1, y1: y + 0.08, x2: x + 0.45, y2: y + 0.34 }), s('line.sym', { x1: x + 0.45, y1: y + 0.08, x2: x + 0.1, y2: y + 0.34 })]
      : u.type === 'artillery'
        ? [s('circle.sym-dot', { cx: x + 0.27, cy: y + 0.21, r: 0.08 })]
        : [s('line.sym', { x1: x + 0.1, y1: y + 0.34, x2: x + 0.45, y2: y + 0.08 })];
    const disorder = this.unitDisorder(u);
    const ticked = m.ticked && m.ticked.has(u.id);
    const cls = `hx-counter c-${m.colour(u.side)}${sel ? ' selected' : ''}${ticked ? ' ticked' : ''}${disorder ? ' disordered' : ''}`;
    const K = COUNTER;
    this.obstacle(c, dx * K, dy * K, 0.42 * K, 0.3 * K);
    this.hit('unit', u.id, c, dx * K, dy * K);
    // its name, short, under it on the screen where there is room
    const full = m.name(u.id);
    const short = full && full !== u.id ? shortName(full) : u.id;
    this.mark('text.lbl.lbl-unit.hx-uname', short, c, dx * K, dy * K,
      { r: { x: 0.42 * K, y: 0.3 * K }, slots: ['b', 't', 'r', 'l'], prio: this.prioOf(u.side), zoom: 'far', loose: true, words: (z) => (z === 'close' ? full || u.id : short) })
      .dataset.unitName = u.id;
    return s('g', { class: cls, dataset: { unit: u.id, side: u.side }, 'aria-label': m.name(u.id), transform: this.counterAt(c) },
      s('title', { text: `${m.name(u.id)}: ${u.type}, ${u.formation}, strength ${u.strength}${disorder ? `, ${disorder}` : ''}` }),
      s('rect.box', { x, y, width: 0.84, height: 0.6, rx: 0.05 }),
      s('rect.sym-box', { x: x + 0.08, y: y + 0.06, width: 0.4, height: 0.3 }),
      ...sym,
      s('text.str', { x: x + 0.66, y: y + 0.34, text: String(u.strength) }),
      s('text.shape', { x: x + 0.42, y: y + 0.55, text: this.shapeWord(u) }));
  }

  leaderCounter(l, k, n, x) {
    const m = this.model;
    const c = this.centre(l.at);
    const box = (x.leaders || {})[l.id] || {};
    const a = (k / Math.max(n, 1)) * 2 * Math.PI - Math.PI / 2;
    const cx = c.x + (n > 1 ? 0.42 * Math.cos(a) : 0.38), cy = c.y + (n > 1 ? 0.42 * Math.sin(a) : -0.38);
    const sel = m.selected && m.selected.kind === 'general' && m.selected.id === l.id;
    const cls = `hx-leader c-${m.colour(l.side)} ${l.state}${sel ? ' selected' : ''}${l.reduced ? ' reduced' : ''}`;
    const marker = box.marker === 'received' ? 'R' : box.marker && box.marker.startsWith('delay-') ? `D${box.marker.slice(6)}` : '';
    const K = COUNTER;
    this.obstacle(c, (cx - c.x) * K, (cy - c.y) * K, 0.26 * K, 0.26 * K);
    this.hit('general', l.id, c, (cx - c.x) * K, (cy - c.y) * K);
    // his name, first of all labels and kept whatever is in the way (in
    // the labels layer: his counter is the counter alone)
    this.mark('text.lbl.hx-name', m.name(l.id), c, (cx - c.x) * K, (cy - c.y) * K,
      { r: 0.3 * K, slots: ['r', 'l', 't', 'b', 'tr', 'br', 'tl', 'bl'], prio: 0, keep: true, inside: true, zoom: this.leaderZoom(l), loose: true })
      .dataset.name = l.id;
    return s('g', { class: cls, dataset: { general: l.id, side: l.side, state: l.state, marker: box.marker || '' }, 'aria-label': m.name(l.id), transform: this.counterAt(c) },
      s('title', { text: `${m.name(l.id)} (${l.role}): ${l.state}${box.marker ? `, ${box.marker.replace('-', ' ')}` : ''}${box.order ? `; order ${box.order}` : ''}${box.pending ? `; on its way: ${box.pending}` : ''}` }),
      s('circle.ring', { cx, cy, r: 0.26 }),
      s('text.role', { x: cx, y: cy + 0.09, text: this.leaderLetter(l) }),
      marker ? s('g.hx-marker', null, s('rect.mk', { x: cx + 0.14, y: cy - 0.4, width: 0.34, height: 0.22, rx: 0.04 }), s('text.mk', { x: cx + 0.31, y: cy - 0.24, text: marker })) : null,
      box.cp ? s('text.cp', { x: cx - 0.32, y: cy - 0.22, text: 'CP' }) : null);
  }

  /** The key under the map: the counters, and the terrain, hexsides and roads on this map. */
  legend() {
    const el = document.getElementById('legend');
    if (!el) return;
    const t = this.hex.terrain;
    const terrains = t ? [...new Set([...t.hexes].map((c) => t.letters[c]))].filter((n) => n && n !== 'clear') : [];
    const sides = t ? [...new Set(t.sides.flatMap((x) => x.what))] : [];
    const roads = t ? [...new Set(t.roads.flatMap((x) => x.what))] : [];
    const levels = t ? [...t.levels].some((c) => c !== '0') : false;
    const sig = JSON.stringify([terrains, sides, roads, levels]);
    if (el.dataset.sig === sig) return;
    el.dataset.sig = sig;
    const sw = (...kids) => s('svg.lg-sw', { viewBox: '0 0 1.4 1', 'aria-hidden': 'true' }, ...kids);
    const hexSw = (name) => sw(
      s('rect', { x: 0, y: 0, width: 1.4, height: 1, fill: TERRAIN[name] || '#eee', class: 'hx-cell', dataset: { terrain: name } }),
      PATTERNED.includes(name) ? s('rect', { x: 0, y: 0, width: 1.4, height: 1, fill: `url(#hp-${name})` }) : null);
    const item = (swatch, words, data) => h('span.lg-item', { dataset: data }, swatch, words);
    fill(el,
      item(h('span.lg.lg-counter'), 'unit counter (strength, formation)'),
      item(h('span.lg.lg-gen'), this.leaderKey()),
      ...terrains.map((n) => item(hexSw(n), n.replace(/-/g, ' '), { terrain: n })),
      levels ? item(sw(s('rect.hx-level', { x: 0, y: 0, width: 1.4, height: 1, 'fill-opacity': '0.3' })), 'higher ground (darker: higher)', { terrain: 'level' }) : null,
      ...sides.map((n) => {
        const [col, w] = SIDES[n] || ['#333', 0.1];
        return item(sw(s('line.hx-side', { x1: 0.1, y1: 0.5, x2: 1.3, y2: 0.5, stroke: col, 'stroke-width': w, dataset: { side: n } })), n.replace(/-/g, ' '), { side: n });
      }),
      ...roads.map((n) => {
        const [col, w, dash] = ROADS[n] || ['#8a6d3b', 0.15, ''];
        return item(sw(s('line.hx-road', { x1: 0.1, y1: 0.5, x2: 1.3, y2: 0.5, stroke: col, 'stroke-width': w, 'stroke-dasharray': dash || null })), n.replace(/-/g, ' '), { road: n });
      }));
  }
}
