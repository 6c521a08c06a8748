// The map: an SVG whose user units are the table's inches (x east, y
// south). Draws the table and its entry grid, the pieces, command ranges,
// the enemy's engagement reach, messengers and their routes, and order
// objectives; pans and zooms (wheel, pinch, buttons); lets a player drag
// his pieces and tap an objective.

import { s, fill, num, pt, squareOf, zoomed, showView, mapPoint } from './dom.js';

/** Margin drawn around the table, inches. */
const MARGIN = 5;

/** Width and depth of a unit's block by formation, inches (front first). */
const SHAPES = {
  column: [0.9, 1.4],
  'march-column': [0.55, 2.0],
  line: [1.8, 0.6],
  square: [1.0, 1.0],
  skirmish: [1.8, 0.45],
  limbered: [0.8, 1.3],
  unlimbered: [1.3, 0.7],
};

/** The outline of an enemy unit last seen (its formation is not known), inches; a general's radius. */
const GHOST = [1.4, 0.9];
const GHOST_R = 0.7;

/** Radius of a general's marker by the kind of formation he commands. */
const GENERAL_R = { army: 1.05, wing: 0.9, corps: 0.8, division: 0.6, brigade: 0.7 };

/**
 * @typedef {{kind:'unit'|'general'|'messenger', id:string}} Ref
 * @typedef {{
 *   field:any, state:any, names:Object<string,string>, etas:Object<string,number>, reach:number, reaching:string[],
 *   words:import('./oob.js').OrderText,
 *   seat:{role:string, side?:string}, colour:(side:string)=>string, name:(id:string)=>string,
 *   canMove:boolean, canPick:boolean, objective:number[]|null, selected:Ref|null,
 *   showRanges:boolean, showReach:boolean, pending:Object<string,number[]>,
 *   extra?:any
 * }} MapModel
 *
 * extra is a staff-rating game's board (BP): each unit's corners, arcs,
 * moves left and legal targets, and the proximity distance, as the
 * server works them out. A unit's position is then the centre of its
 * front edge.
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
    /** @type {MapModel|null} */
    this.model = null;
    this.view = { x: 0, y: 0, w: 100, h: 50 };
    this.fitted = false;
    /** @type {Map<number,{x:number,y:number}>} */
    this.pointers = new Map();
    this.gesture = null;
    this.listen();
    this.userMoved = false;
    new ResizeObserver(() => { if (this.userMoved) this.applyView(); else this.fit(); }).observe(svg);
  }

  /** @param {MapModel} model */
  render(model) {
    this.model = model;
    if (!this.fitted) { this.fit(); this.fitted = true; }
    if (this.gesture && this.gesture.type === 'piece') return; // redraw when the drag ends
    this.drawTable();
    this.drawReach();
    this.drawRanges();
    this.drawObjectives();
    this.drawGhosts();
    this.drawUnits();
    this.drawGenerals();
    this.drawMessengers();
    this.drawPick();
  }

  // ---- view: pan and zoom ------------------------------------------------

  /** Shows the whole table, clear of the zoom buttons on the left. */
  fit() {
    const f = this.model ? this.model.field : { width: 96, depth: 48 };
    const w = f.width + 2 * MARGIN, d = f.depth + 2 * MARGIN;
    const r = this.svg.getBoundingClientRect();
    const pad = 58; // px kept free for the map tools
    if (r.width > pad * 3 && r.height > 0) {
      const k = Math.min((r.width - pad) / w, r.height / d); // px per inch
      const vw = r.width / k, vh = r.height / k;
      const left = Math.max(pad / k, (vw - w) / 2);
      this.view = { x: -MARGIN - left, y: -MARGIN - (vh - d) / 2, w: vw, h: vh };
    } else {
      this.view = { x: -MARGIN, y: -MARGIN, w, h: d };
    }
    this.userMoved = false;
    this.applyView();
  }

  /**
   * Zooms by factor about a point of the table (the centre by default).
   * @param {number} factor more than 1 zooms in
   * @param {{x:number,y:number}} [about]
   */
  zoom(factor, about) {
    const f = this.model ? this.model.field : { width: 96, depth: 48 };
    this.view = zoomed(this.view, factor, about, 6, (f.width + 2 * MARGIN) * 2);
    this.userMoved = true;
    this.applyView();
  }

  applyView() { showView(this.svg, this.view, [34, 18, 9], 6); }

  /**
   * The table point under a screen point.
   * @param {number} cx @param {number} cy client coordinates
   * @returns {{x:number,y:number}}
   */
  toTable(cx, cy) { return mapPoint(this.svg, cx, cy); }

  /**
   * The client (screen) point of a table point, for tests and tools.
   * @param {number} x @param {number} y inches
   * @returns {{x:number,y:number}}
   */
  toScreen(x, y) { return mapPoint(this.svg, x, y, true); }

  listen() {
    const svg = this.svg;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const f = Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015));
      this.zoom(f, this.toTable(ev.clientX, ev.clientY));
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
    const el = /** @type {Element} */ (ev.target).closest('[data-unit],[data-general],[data-messenger]');
    const ref = el ? refOf(el) : null;
    if (ref && ref.kind !== 'messenger' && this.movable(ref)) {
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
      if (g.dist > 0 && d > 0) this.zoom(d / g.dist, this.toTable((a.x + b.x) / 2, (a.y + b.y) / 2));
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
      g.to = [Math.round((p.x - gx) * 100) / 100, Math.round((p.y - gy) * 100) / 100];
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
      if (!g.moved) { this.hooks.onSelect(g.ref); return; }
      g.el.classList.add('pending');
      this.hooks.onMove(g.ref, g.to).then((ok) => {
        if (!ok) {
          this.render(this.model);
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

  /** @param {Ref} ref */
  movable(ref) {
    const m = this.model;
    if (!m || !m.canMove) return false;
    const p = ref.kind === 'unit' ? m.state.units.find((u) => u.id === ref.id) : m.state.generals.find((x) => x.id === ref.id);
    if (!p || !p['on-table']) return false;
    if (ref.kind === 'general' && (p.attached || p.fate)) return false;
    return m.seat.role === 'umpire' || p.side === m.seat.side;
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
    return this.svg.querySelector(`[data-${ref.kind}="${CSS.escape(ref.id)}"]`);
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
    const out = this.onTable(g.to);
    fill(this.layers.drag,
      u && u.speed ? s('circle.speed', { cx: x0, cy: y0, r: u.speed, 'vector-effect': 'non-scaling-stroke' }) : null,
      s('line.guide', { x1: x0, y1: y0, x2: x1, y2: y1, 'vector-effect': 'non-scaling-stroke', class: out ? 'guide off' : 'guide' }),
      s('circle.from', { cx: x0, cy: y0, r: 0.25 }),
      s('text.lbl.guide-lbl', { x: x1 + 0.8, y: y1 - 0.8, text: out ? 'off the table' : `${num(Math.round(d * 10) / 10)}″` }),
    );
  }

  // ---- drawing -----------------------------------------------------------

  /**
   * The terrain on the table, as the server sends it: areas filled by
   * type (a town with its blocks), lines stroked (walls, rivers, roads);
   * each with its name and rating in a title.
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
      ...this.features(f.features || []),
    ];
    if (f.columns && f.rows) {
      const cw = f.width / f.columns;
      const rh = f.depth / f.rows;
      for (let c = 1; c < f.columns; c++) parts.push(s('line.grid', { x1: c * cw, y1: 0, x2: c * cw, y2: f.depth, 'vector-effect': 'non-scaling-stroke' }));
      for (let r = 1; r < f.rows; r++) parts.push(s('line.grid', { x1: 0, y1: r * rh, x2: f.width, y2: r * rh, 'vector-effect': 'non-scaling-stroke' }));
      for (let c = 0; c < f.columns; c++) {
        for (let r = 0; r < f.rows; r++) {
          parts.push(s('text.lbl.square', { x: c * cw + 0.6, y: r * rh + 0.6, 'dominant-baseline': 'hanging', text: String.fromCharCode(65 + c) + (r + 1) }));
        }
      }
    }
    parts.push(s('rect.edge', { x: 0, y: 0, width: f.width, height: f.depth, 'vector-effect': 'non-scaling-stroke' }));
    // scale along the margins every 12 inches
    for (let x = 0; x <= f.width + 1e-9; x += 12) parts.push(s('text.lbl.scale', { x, y: -1.2, 'text-anchor': 'middle', text: num(x) }));
    for (let y = 0; y <= f.depth + 1e-9; y += 12) parts.push(s('text.lbl.scale', { x: -1.2, y, 'text-anchor': 'end', 'dominant-baseline': 'middle', text: num(y) }));
    parts.push(s('text.lbl.north', { x: f.width + MARGIN - 0.8, y: -MARGIN + 0.8, 'text-anchor': 'end', 'dominant-baseline': 'hanging', text: 'N ↑' }));
    // base edges
    for (const sd of this.model.sides || []) {
      const pos = edgeLabel(f, sd.edge);
      if (!pos) continue;
      parts.push(s(`text.lbl.base.c-${colour(sd.id)}`, { x: pos.x, y: pos.y, 'text-anchor': 'middle', 'dominant-baseline': 'middle', transform: pos.rot ? `rotate(${pos.rot} ${pos.x} ${pos.y})` : null, text: `${sd.name} — base edge` }));
    }
    // own off-board reserves: where they will come on
    for (const fm of state.formations || []) {
      if (fm.reserve !== 'off-board' || !fm.square || !f.columns) continue;
      const at = edgeMid(f, fm.square, fm.edge);
      if (!at) continue;
      parts.push(s(`g.entry.c-${colour(fm.side)}`, { dataset: { formation: fm.id } },
        s('title', { text: `${this.model.name(fm.id)} (${fm.id}): off-board reserve, enters at ${fm.square} on the ${fm.edge} edge` }),
        s('circle', { cx: at[0], cy: at[1], r: 1.2 }),
        s('text.lbl', { x: at[0] + (fm.edge === 'east' ? -1.8 : 1.8), y: at[1], 'text-anchor': fm.edge === 'east' ? 'end' : 'start', 'dominant-baseline': 'middle', text: `${fm.id} enters ${fm.square}` }),
      ));
    }
    fill(this.layers.table, ...parts);
  }

  drawReach() {
    const m = this.model;
    if (m.extra) { this.drawProximity(); return; }
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

  /** BP: the band within the proximity distance of each enemy unit (BP-3, BP-7). */
  drawProximity() {
    const m = this.model;
    const x = m.extra;
    if (x.radii) { this.drawRadii(); return; }
    const groups = new Map();
    if (m.showReach) {
      for (const u of m.state.units) {
        const box = x.units[u.id];
        if (!box || !u['on-table'] || (m.seat.role !== 'umpire' && u.side === m.seat.side)) continue;
        if (!groups.has(u.side)) groups.set(u.side, []);
        groups.get(u.side).push(s('polygon', { points: box.corners.map((p) => p.join(',')).join(' '), 'stroke-width': 2 * x.proximity }));
      }
    }
    const gs = [];
    for (const [side, polys] of groups) {
      gs.push(s(`g.proximity.c-${m.colour(side)}`, { dataset: { side } }, s('title', { text: `Within ${num(x.proximity)}″ of the units of ${side}: only forward in the front arc or back in the rear arc (BP-7)` }), ...polys));
    }
    fill(this.layers.reach, ...gs);
  }

  /** CD: the command radii of the seat's commanders, as the server gives them (CD-8). */
  drawRadii() {
    const m = this.model;
    const out = [];
    if (m.showReach) {
      for (const r of m.extra.radii || []) {
        const g = m.state.generals.find((x) => x.id === r.general);
        if (!g) continue;
        out.push(s(`circle.radius.c-${m.colour(g.side)}`, { cx: r.at[0], cy: r.at[1], r: r.radius, 'vector-effect': 'non-scaling-stroke', dataset: { radius: r.general } },
          s('title', { text: `${g.name || g.id}: command radius ${num(r.radius)}″` })));
      }
    }
    fill(this.layers.reach, ...out);
  }

  /** BP: the selected unit's front and rear arcs, and the ground its moves left may cover (CD: the ground alone). */
  drawArcs() {
    const m = this.model;
    const x = m.extra;
    const out = [];
    const sel = m.selected && m.selected.kind === 'unit' ? m.state.units.find((u) => u.id === m.selected.id) : null;
    const box = sel && x.units[sel.id];
    if (box && !box.front) {
      if (box.left > 0) out.push(s(`circle.allowance.c-${m.colour(sel.side)}`, { cx: sel.at[0], cy: sel.at[1], r: box.left, 'vector-effect': 'non-scaling-stroke', dataset: { allowance: sel.id } }, s('title', { text: `${num(box.left)}″ of its move left on open ground` })));
    } else if (box) {
      out.push(s(`polygon.arc.front.c-${m.colour(sel.side)}`, { points: box.front.map((p) => p.join(',')).join(' '), dataset: { arc: 'front' } }));
      out.push(s(`polygon.arc.rear.c-${m.colour(sel.side)}`, { points: box.rear.map((p) => p.join(',')).join(' '), dataset: { arc: 'rear' } }));
      if (box.left > 0) out.push(s(`circle.allowance.c-${m.colour(sel.side)}`, { cx: sel.at[0], cy: sel.at[1], r: box.left, 'vector-effect': 'non-scaling-stroke', dataset: { allowance: sel.id } }, s('title', { text: `${num(box.left)}″ of moves left` })));
    }
    fill(this.layers.ranges, ...out);
  }

  drawRanges() {
    const m = this.model;
    if (m.extra) { this.drawArcs(); return; }
    const out = [];
    if (m.showRanges) {
      for (const g of m.state.generals) {
        if (!g['on-table'] || g.fate || !(g.range > 0)) continue;
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
      out.push(s(`g.flag.c-${m.colour(side)}${pending ? '.pending' : ''}`, { transform: `translate(${x} ${y})`, dataset: { order: o.id } },
        s('title', { text: `${o.id}: ${text || o.kind} for ${who} — ${status}` }),
        s('line.pole', { x1: 0, y1: 0, x2: 0, y2: -2.6 }),
        s('path.pennant', { d: 'M0 -2.6 L1.9 -2.05 L0 -1.5 Z' }),
        s('circle.foot', { r: 0.22 }),
        s('text.lbl.flag-lbl', { x: 0.45, y: 0.9, 'dominant-baseline': 'hanging', text: `${who} ${o.kind}${pending ? ` (${status})` : ''}` }),
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
      const below = g.kind === 'general' || g.kind === 'messenger' ? GHOST_R : GHOST[1] / 2;
      return s(`g.ghost.c-${m.colour(g.side)}`, { transform: `translate(${g.at[0]} ${g.at[1]})`, dataset: { ghost: g.id, side: g.side, turn: g.turn } },
        s('title', { text: ghostTitle(g, label) }),
        ...body,
        s('text.lbl.lbl-ghost', { x: 0, y: below + 0.35, 'text-anchor': 'middle', 'dominant-baseline': 'hanging' },
          s('tspan.ghost-name', { text: `${label} · ` }), s('tspan.ghost-seen', { text: `last seen T${g.turn}` })),
      );
    }));
  }

  drawUnits() {
    const m = this.model;
    const out = [];
    const x = m.extra;
    const sel = x && m.selected && m.selected.kind === 'unit' ? x.units[m.selected.id] : null;
    const targets = new Set([...((sel && sel.targets) || []), ...((sel && sel.charges) || [])]);
    // CD: the selected unit's coherent brigade group, as the server finds it (CD-4).
    const selUnit = x && m.selected && m.selected.kind === 'unit' ? m.state.units.find((u) => u.id === m.selected.id) : null;
    const grouped = new Set(((x && x.groups && selUnit && x.groups[selUnit.brigade]) || []).find((g) => g.includes(selUnit.id)) || []);
    for (const u of m.state.units) {
      if (!u['on-table']) continue;
      const at = (m.pending && m.pending[u.id]) || u.at;
      if (x && x.units[u.id] && x.units[u.id].screened) continue;
      if (x && x.units[u.id]) { out.push(this.bpUnit(u, at, x.units[u.id], targets.has(u.id), grouped.size > 1 && grouped.has(u.id))); continue; }
      const [w, d] = SHAPES[u.formation] || SHAPES.column;
      const ref = { kind: 'unit', id: u.id };
      const cls = ['piece', 'unit', `c-${m.colour(u.side)}`, `t-${u.type}`, `f-${u.formation}`, `st-${u.status}`];
      if (this.movable(ref)) cls.push('movable');
      if (isSel(m, ref)) cls.push('selected');
      const marks = typeMarks(u.type, w, d);
      out.push(s('g', { class: cls.join(' '), transform: `translate(${at[0]} ${at[1]}) rotate(${u.facing || 0})`, dataset: { unit: u.id, side: u.side } },
        s('title', { text: unitTitle(u, m) }),
        s('rect.hit', { x: -Math.max(w, 1.6) / 2, y: -Math.max(d, 1.6) / 2, width: Math.max(w, 1.6), height: Math.max(d, 1.6) }),
        s('rect.body', { x: -w / 2, y: -d / 2, width: w, height: d }),
        ...marks,
        s('line.front', { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2 }),
        u.status === 'routed' ? s('rect.rout', { x: -w / 2, y: -d / 2, width: w, height: d, fill: 'url(#hatch)' }) : null,
        s('text.lbl.lbl-unit', { x: 0, y: d / 2 + 0.35, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', transform: u.facing ? `rotate(${-u.facing} 0 0)` : null, text: shortId(u) }),
        s('text.lbl.lbl-unit-full', { x: 0, y: d / 2 + 0.35, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', transform: u.facing ? `rotate(${-u.facing} 0 0)` : null, text: u.id }),
      ));
    }
    fill(this.layers.units, ...out);
  }

  /**
   * A BP unit: its footprint behind its front edge, as the server sizes
   * it, with its marks.
   */
  bpUnit(u, at, box, target, grouped = false) {
    const m = this.model;
    const [c0, c1, c2] = box.corners;
    const w = Math.hypot(c1[0] - c0[0], c1[1] - c0[1]);
    const d = Math.hypot(c2[0] - c1[0], c2[1] - c1[1]);
    const ref = { kind: 'unit', id: u.id };
    const cls = ['piece', 'unit', 'bp', `c-${m.colour(u.side)}`, `t-${u.type}`, `f-${u.formation}`];
    if (u.disordered) cls.push('st-disordered');
    if (u.shaken) cls.push('st-shaken');
    if ((u.engaged || []).length) cls.push('st-engaged');
    if (target) cls.push('target');
    if (grouped) cls.push('grouped');
    if (this.movable(ref)) cls.push('movable');
    if (isSel(m, ref)) cls.push('selected');
    const up = u.facing ? `rotate(${-u.facing} 0 ${d / 2})` : null;
    const cd = u.stamina === undefined;
    const lines = [`${u.id} — ${u.type}, ${u.formation}`, `casualties ${u.casualties || 0}${cd ? `, CW ${u.cw ?? '—'}` : ` of stamina ${u.stamina}`}${u.disordered ? ', disordered' : ''}${u.shaken ? ', shaken' : ''}${(u.engaged || []).length ? ', in combat' : ''}`,
      `at ${pt(u.at)}, facing ${num(u.facing || 0)}°${box.left ? `, ${num(box.left)}″ of moves left` : ''}${cd && !box.command ? ', out of command radius' : ''}`];
    return s('g', { class: cls.join(' '), transform: `translate(${at[0]} ${at[1]}) rotate(${u.facing || 0})`, dataset: { unit: u.id, side: u.side } },
      s('title', { text: lines.join('\n') }),
      s('rect.hit', { x: -Math.max(w, 1.6) / 2, y: 0, width: Math.max(w, 1.6), height: Math.max(d, 1.6) }),
      s('rect.body', { x: -w / 2, y: 0, width: w, height: d }),
      s('line.front', { x1: -w / 2, y1: 0, x2: w / 2, y2: 0 }),
      u.disordered ? s('rect.rout', { x: -w / 2, y: 0, width: w, height: d, fill: 'url(#hatch)' }) : null,
      s('text.lbl.lbl-cas', { x: 0, y: d / 2, 'text-anchor': 'middle', 'dominant-baseline': 'middle', transform: up, text: cd ? (u.act ? (u.factor ? `x${u.factor}` : 'NM') : '') : `${u.casualties || 0}/${u.stamina}` }),
      s('text.lbl.lbl-unit', { x: 0, y: d + 0.35, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', transform: u.facing ? `rotate(${-u.facing} 0 ${d + 0.35})` : null, text: u.id }),
    );
  }

  drawGenerals() {
    const m = this.model;
    const kindOf = {};
    for (const f of m.state.formations || []) kindOf[f.id] = f.kind;
    const out = [];
    for (const g of m.state.generals) {
      if (!g['on-table'] || g.replaced) continue;
      let at = (m.pending && m.pending[g.id]) || g.at;
      // an attached general stands with his unit: drawn beside it, so that
      // the unit stays in reach of a finger
      if (g.attached) at = [at[0] + 0.9, at[1] - 0.9];
      const kind = kindOf[g.commands || g.brigade || (m.extra ? g.side : '')] || (m.extra && !g.brigade ? 'army' : 'division');
      const r = GENERAL_R[kind] || 0.6;
      const ref = { kind: 'general', id: g.id };
      const cls = ['piece', 'general', `c-${m.colour(g.side)}`, `k-${kind}`];
      if (g.fate) cls.push('fallen');
      if (g.attached) cls.push('attached');
      if (this.movable(ref)) cls.push('movable');
      if (isSel(m, ref)) cls.push('selected');
      const label = g.name || g.id;
      out.push(s('g', { class: cls.join(' '), transform: `translate(${at[0]} ${at[1]})`, dataset: { general: g.id, side: g.side } },
        s('title', { text: generalTitle(g, kind, m) }),
        s('circle.hit', { r: r + 0.25 }),
        kind === 'army' ? s('circle.outer', { r: r + 0.35 }) : null,
        s('circle.body', { r }),
        s('circle.pip', { r: r * 0.38 }),
        s(`text.lbl.lbl-gen${kind === 'division' ? '.lbl-div' : ''}`, { x: r + 0.4, y: 0, 'dominant-baseline': 'middle', text: label }),
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
      out.push(s(`g.piece.messenger.c-${m.colour(ms.side)}${own ? '.own' : '.enemy'}${isSel(m, ref) ? '.selected' : ''}`,
        { transform: `translate(${ms.at[0]} ${ms.at[1]})`, dataset: { messenger: ms.id, side: ms.side } },
        s('title', { text: title }),
        s('circle.hit', { r: 0.9 }),
        s('path.body', { d: 'M0 -0.75 L0.75 0 L0 0.75 L-0.75 0 Z' }),
        own ? s('text.lbl.lbl-msg', { x: 1.0, y: 0, 'dominant-baseline': 'middle', text: `${to ? '→ ' + m.name(to.id) : ms.id}${eta ? ` · turn ${eta}` : ''}` }) : null,
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
      s('text.lbl.pick-lbl', { x: 1.8, y: -1.8, text: `${pt(p)}${sq ? ' ' + sq : ''}` }),
    ));
  }
}

/** @param {Element} el @returns {Ref|null} */
function refOf(el) {
  const d = /** @type {HTMLElement} */ (el).dataset;
  if (d.unit) return { kind: 'unit', id: d.unit };
  if (d.general) return { kind: 'general', id: d.general };
  if (d.messenger) return { kind: 'messenger', id: d.messenger };
  return null;
}

/** A unit's id without its division's: "a" for F-I-1-a. */
function shortId(u) {
  return u.id.startsWith(u.division + '-') ? u.id.slice(u.division.length + 1) : u.id;
}

function isSel(m, ref) {
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

function unitTitle(u, m) {
  const div = m.name(u.division);
  const lines = [`${u.id} — ${u.type.replace('-', ' ')}, ${u.formation}, ${u.status}`, `${div !== u.division ? `${div} (${u.division})` : u.division} · ${u.side}`];
  lines.push(`at ${pt(u.at)}, facing ${num(u.facing || 0)}°, speed ${num(u.speed)}″${u.moved ? `, moved ${num(Math.round(u.moved * 10) / 10)}″ this turn` : ''}`);
  if (u.detachment) lines.push('detachment');
  if (u.combat) lines.push('started combat this turn');
  return lines.join('\n');
}

function generalTitle(g, kind, m) {
  if (g.staff) return `${g.name || g.id} — ${g.brigade ? `commands ${m.name(g.brigade)}` : 'army commander'}\nstaff rating ${g.staff}${g.trait ? ` (${g.trait})` : ''} · ${g.side}`;
  const f = m.name(g.commands);
  const lines = [`${g.name || g.id} — ${kind === 'army' ? 'army commander' : `commands ${f !== g.commands ? `${f} (${g.commands})` : g.commands}`}`];
  lines.push(`${g.quality || '?'}, command range ${num(g.range)}″ · ${g.side}`);
  if (g.attached) lines.push(`attached to ${m.name(g.attached)}`);
  if (g.fate) lines.push(g.fate);
  return lines.join('\n');
}

function edgeLabel(f, edge) {
  switch (edge) {
    case 'north': return { x: f.width / 2, y: -2.8 };
    case 'south': return { x: f.width / 2, y: f.depth + 2.8 };
    case 'west': return { x: -3, y: f.depth / 2, rot: -90 };
    case 'east': return { x: f.width + 3, y: f.depth / 2, rot: 90 };
  }
  return null;
}

/** The middle of a grid square's side on an edge. */
function edgeMid(f, square, edge) {
  const col = square.charCodeAt(0) - 65;
  const row = parseInt(square.slice(1), 10) - 1;
  if (!(col >= 0) || !(row >= 0)) return null;
  const cw = f.width / f.columns, rh = f.depth / f.rows;
  const mx = (col + 0.5) * cw, my = (row + 0.5) * rh;
  switch (edge) {
    case 'north': return [mx, 0];
    case 'south': return [mx, f.depth];
    case 'west': return [0, my];
    case 'east': return [f.width, my];
  }
  return [mx, my];
}
