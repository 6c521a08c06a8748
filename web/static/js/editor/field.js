// The scenario editor's field: draws the document's table (inches) or hex
// map (a hex's radius is the unit) with its backdrop image, terrain and
// pieces, and edits them in place: terrain features drawn on a table,
// terrain, elevation, hexsides and roads painted on a hex map, the
// backdrop calibrated by two clicks, pieces dropped from the tree and
// dragged about. It draws and edits data only: what is wrong with the
// scenario, the server's check says.

import { s, h, fill, num, zoomed, showView, mapPoint } from '../dom.js';
import {
  hexGrid, readGrid, writeGrid, items, toggleSide, getPath, pieces, marks, hexImagePlace, hexCalibration, tableScale, snap,
} from './field-geom.js';

/** The drag-and-drop type of a piece dragged from the tree: its path. */
export const PATH_TYPE = 'application/x-orderly-path';

/** Margin drawn round a table, inches, and round a hex map, radii. */
const TABLE_MARGIN = 6;
const HEX_MARGIN = 1.5;

/** Fill of a hex's terrain, by name; others take a colour of OTHER by their place in the key. */
const TERRAIN = {
  clear: '#ece6c8', 'light-cover': '#d3dca2', farmette: '#ddbf8f', woods: '#7fa467', town: '#b3aba0', 'frozen-wetlands': '#d5e6ee',
  rough: '#d9cfae', marsh: '#c9ddd3',
};
const OTHER = ['#c8b6d8', '#e3c1a4', '#a9c7c1', '#d8d08a', '#b9b9b9', '#e0a9a9'];

/** Stroke of a hexside feature or a road, by name; others take LINES by their place. */
const STROKES = {
  brook: '#4d8fd1', stream: '#2f6fb8', 'major-stream': '#1f4f96', creek: '#4d8fd1', river: '#1f4f96',
  'light-cover-side': '#5e8b3a', steep: '#7a4b22', 'major-road': '#8a6d3b', 'minor-road': '#a88d5a', road: '#8a6d3b',
};
const LINES = ['#7b3fa0', '#b05a1e', '#2e7d6b', '#6b6b6b'];

/** Fill or stroke of a table feature, by type. */
const FEATURE = {
  'light-woods': '#b5cf8f', 'heavy-woods': '#6f9a55', ford: '#9cc6e0', 'gradual-slope': '#e2d3a6', slope: '#cfb47e',
  'steep-slope': '#a98a55', town: '#b3aba0', 'linear-obstacle': '#5f4e30', river: '#3f7fc0', road: '#9c8455',
};

/** The features drawn as lines when the editor's info does not say (the format's own list). */
const LINE_TYPES = ['linear-obstacle', 'river', 'road'];

/** Colours of the two sides: a class of the page's style and a fill. */
const SIDES = [['blue', '#2b59a5'], ['red', '#b0342a']];

/** A unit's facing that looks away from its side's base edge, when it has none. */
const FACING = { south: 0, west: 90, north: 180, east: 270 };

/** A unit's base on a table as drawn, inches (the rule set sizes the real one). */
const BASE = { w: 2.4, d: 1 };

/**
 * @typedef {{changed:(doc:any, path?:string)=>void, select:(path:string)=>void}} Hooks
 * @typedef {{kind:string, arg?:string}} Tool
 */

export class FieldEditor {
  /**
   * @param {SVGSVGElement} svg
   * @param {Hooks} hooks
   */
  constructor(svg, hooks) {
    this.svg = svg;
    this.hooks = hooks;
    this.doc = null;
    this.info = null;
    this.selected = '';
    /** The path the user last picked on the field, '' for none. */
    this.own = '';
    /** @type {Tool} */
    this.tool = { kind: 'select' };
    /** The corners or points of the feature being drawn, and where the pointer is. */
    this.draft = null;
    this.hover = null;
    /** The road being laid: its kind, the chain's index (-1 before its second hex), its last hex. */
    this.chain = null;
    /** The calibration under way: its step and the points clicked. */
    this.cal = null;
    /** The natural size of each backdrop image drawn, by its data URL. */
    this.sizes = new Map();
    this.view = { x: 0, y: 0, w: 100, h: 60 };
    this.userMoved = false;
    this.fitKey = '';
    this.toolKey = '';
    /** @type {Map<number,{x:number,y:number}>} */
    this.pointers = new Map();
    this.gesture = null;
    this.grid = null;
    /** Whether units' names show on a table: when it is seen close enough. */
    this.namesOn = false;
    /** The backdrop image drawn, and the data URL it shows. */
    this.backdrop = null;
    /** What the hexes drawn show: their grid, terrain and elevation. */
    this.hexKey = '';
    /** Where a piece dragged from the tree would be dropped: a hex or a point. */
    this.dropping = null;

    svg.setAttribute('tabindex', '0');
    // the field's own gestures, not the browser's, on a touch screen
    svg.style.touchAction = 'none';
    svg.classList.add('field-editor');
    this.layers = {};
    const names = ['backdrop', 'ground', 'features', 'marks', 'labels', 'pieces', 'handles', 'draft'];
    for (const n of names) this.layers[n] = s(`g.fe-${n}`);
    // what is drawn over the ground but takes no pointer: the grid, the labels, the draft
    for (const n of ['marks', 'labels', 'draft']) this.layers[n].setAttribute('pointer-events', 'none');
    this.vp = s('g.fe-viewport', null, ...names.map((n) => this.layers[n]));
    svg.replaceChildren(this.vp);
    this.bar = h('div.fe-tools', { role: 'toolbar', 'aria-label': 'Field tools' });
    this.hint = h('p.fe-hint', { 'aria-live': 'polite' });
    this.listen();
    new ResizeObserver(() => { if (this.userMoved) this.applyView(); else this.fit(); }).observe(svg);
  }

  /**
   * Draws doc with info (GET /api/editor/{rules}); selected: the selected
   * path or ''.
   * @param {any} doc @param {any} info @param {string} selected
   */
  show(doc, info, selected) {
    this.doc = doc;
    this.info = info || {};
    // What the user picked on the field stays selected while the page,
    // which may not know it (a table's feature), says nothing is.
    const given = selected || '';
    if (given || !this.own || this.own !== this.selected) this.selected = given;
    if (given) this.own = '';
    this.draw();
  }

  /** The field's tool bar (brushes, feature tools, backdrop calibration), to put beside it. */
  tools() { return this.bar; }

  // ---- what is drawn ---------------------------------------------------------

  /** 'hex', 'table', or '' when the document has neither a map nor a field. */
  space() {
    const d = this.doc || {};
    if (d.map && typeof d.map === 'object') return 'hex';
    if (d.field && typeof d.field === 'object') return 'table';
    return '';
  }

  /** The table's size in inches, with defaults for a document half written. */
  table() {
    const f = (this.doc && this.doc.field) || {};
    return { width: Number(f.width) > 0 ? Number(f.width) : 72, depth: Number(f.depth) > 0 ? Number(f.depth) : 48 };
  }

  /** The box shown when the field is fitted, in field units. */
  bounds() {
    const sp = this.space();
    if (sp === 'hex') {
      const b = this.grid.bounds;
      return { x: b.x - HEX_MARGIN, y: b.y - HEX_MARGIN, w: b.w + 2 * HEX_MARGIN, h: b.h + 2 * HEX_MARGIN };
    }
    const t = this.table();
    return { x: -TABLE_MARGIN, y: -TABLE_MARGIN, w: t.width + 2 * TABLE_MARGIN, h: t.depth + 2 * TABLE_MARGIN };
  }

  draw() {
    const sp = this.space();
    this.grid = sp === 'hex' ? hexGrid(this.doc.map) : null;
    const key = JSON.stringify(sp === 'hex' ? [sp, this.grid.columns, this.grid.rows, this.grid.layout] : [sp, this.table()]);
    if (key !== this.fitKey) { this.fitKey = key; this.fit(); }
    this.svg.dataset.space = sp || 'none';
    if (sp === 'hex') this.drawHexes();
    else if (sp === 'table') this.drawTable();
    else {
      for (const l of Object.values(this.layers)) fill(l);
      fill(this.layers.labels, s('text.fe-empty', { x: 50, y: 30, 'text-anchor': 'middle', 'font-size': 3, text: 'No table or hex map yet' }));
    }
    if (sp) {
      this.drawBackdrop();
      this.drawPieces();
      this.drawDraft();
    }
    this.updateTools();
  }

  /** The backdrop image (field.image or map.image) at its calibration. */
  imageDoc() {
    const sp = this.space();
    const im = sp === 'hex' ? this.doc.map.image : sp === 'table' ? this.doc.field.image : null;
    return im && typeof im === 'object' && typeof im.data === 'string' ? im : null;
  }

  /** Where the image lies in field units: its box and units per pixel, or null until its size is known. */
  imagePlace() {
    const im = this.imageDoc();
    if (!im) return null;
    const size = this.sizes.get(im.data);
    if (!size || size === 'loading' || size === 'bad') {
      if (!size) this.measure(im.data);
      return null;
    }
    if (this.space() === 'hex') {
      if (!(im.dx > 0 && im.dy > 0)) return null;
      const p = hexImagePlace(this.grid, { x0: Number(im.x0) || 0, y0: Number(im.y0) || 0, dx: im.dx, dy: im.dy });
      return { x: p.x, y: p.y, kx: p.kx, ky: p.ky, w: size.w, h: size.h };
    }
    if (!(im.scale > 0)) return null;
    const at = Array.isArray(im.at) ? im.at : [0, 0];
    return { x: Number(at[0]) || 0, y: Number(at[1]) || 0, kx: 1 / im.scale, ky: 1 / im.scale, w: size.w, h: size.h };
  }

  /** Learns an image's size in pixels, then draws again. @param {string} data */
  measure(data) {
    if (this.sizes.size >= 4) this.sizes.clear(); // images replaced: let them go
    this.sizes.set(data, 'loading');
    const img = new Image();
    img.onload = () => { this.sizes.set(data, { w: img.naturalWidth, h: img.naturalHeight }); this.draw(); };
    img.onerror = () => { this.sizes.set(data, 'bad'); this.say('The backdrop image cannot be read; choose a PNG, JPEG or GIF.'); };
    img.src = data;
  }

  drawBackdrop() {
    const im = this.imageDoc();
    const pl = this.imagePlace();
    if (!im || !pl) { fill(this.layers.backdrop); this.backdrop = null; return; }
    // the same image is moved, not set again (its data may be megabytes)
    if (!this.backdrop || this.backdrop.data !== im.data) {
      this.backdrop = { data: im.data, el: s('image.fe-image', { href: im.data, preserveAspectRatio: 'none', opacity: 0.9 }) };
    }
    const el = this.backdrop.el;
    for (const [k, v] of Object.entries({ x: pl.x, y: pl.y, width: pl.w * pl.kx, height: pl.h * pl.ky })) el.setAttribute(k, String(v));
    if (el.parentNode !== this.layers.backdrop) fill(this.layers.backdrop, el);
  }

  // ---- the table -----------------------------------------------------------------

  drawTable() {
    this.hexKey = '';
    const f = this.doc.field;
    const { width: w, depth: d } = this.table();
    const backdrop = !!this.imageDoc();
    const ground = [
      s('rect.fe-margin', { x: -TABLE_MARGIN, y: -TABLE_MARGIN, width: w + 2 * TABLE_MARGIN, height: d + 2 * TABLE_MARGIN, fill: '#f4f1e8', 'fill-opacity': backdrop ? 0.5 : 1 }),
      s('rect.fe-table', { x: 0, y: 0, width: w, height: d, fill: '#e9e4cf', 'fill-opacity': backdrop ? 0.2 : 1 }),
    ];
    const marks = [], labels = [];
    // a line every 6 inches, a darker one every 12 (on a table of hundreds
    // of feet, every 12, 24, ... so that the lines stay a few hundred)
    let step = 6;
    while (Math.max(w, d) / step > 200) step *= 2;
    const fe = 2 * step;
    for (let x = step; x < w - 1e-9; x += step) marks.push(s('line.fe-grid', { x1: x, y1: 0, x2: x, y2: d, stroke: '#8d8670', 'stroke-opacity': x % fe ? 0.25 : 0.5, 'stroke-width': 0.08 }));
    for (let y = step; y < d - 1e-9; y += step) marks.push(s('line.fe-grid', { x1: 0, y1: y, x2: w, y2: y, stroke: '#8d8670', 'stroke-opacity': y % fe ? 0.25 : 0.5, 'stroke-width': 0.08 }));
    for (let x = 0; x <= w + 1e-9; x += fe) labels.push(s('text.fe-scale', { x, y: -0.8, 'text-anchor': 'middle', 'font-size': 1.3, fill: '#8b8678', text: num(x) }));
    for (let y = fe; y <= d + 1e-9; y += fe) labels.push(s('text.fe-scale', { x: -0.8, y: y + 0.45, 'text-anchor': 'end', 'font-size': 1.3, fill: '#8b8678', text: num(y) }));
    // the entry grid's squares, lettered
    const g = f.grid && typeof f.grid === 'object' ? f.grid : null;
    if (g && g.columns > 0 && g.rows > 0 && g.columns <= 26 && g.rows <= 99) {
      const cw = w / g.columns, rh = d / g.rows;
      for (let c = 1; c < g.columns; c++) marks.push(s('line.fe-entry', { x1: c * cw, y1: 0, x2: c * cw, y2: d, stroke: '#5d6f47', 'stroke-width': 0.12, 'stroke-dasharray': '0.8 0.5' }));
      for (let r = 1; r < g.rows; r++) marks.push(s('line.fe-entry', { x1: 0, y1: r * rh, x2: w, y2: r * rh, stroke: '#5d6f47', 'stroke-width': 0.12, 'stroke-dasharray': '0.8 0.5' }));
      for (let c = 0; c < g.columns; c++) {
        for (let r = 0; r < g.rows; r++) {
          const name = String.fromCharCode(65 + c) + (r + 1);
          labels.push(s('text.fe-square', { x: c * cw + 0.5, y: r * rh + 1.5, 'font-size': 1.2, fill: '#5d6f47', 'font-weight': 600, text: name, dataset: { square: name } }));
        }
      }
    }
    marks.push(s('rect.fe-edge', { x: 0, y: 0, width: w, height: d, fill: 'none', stroke: '#4d4a40', 'stroke-width': 0.15 }));
    // each side's base edge, named in the margin outside it
    (Array.isArray(this.doc.sides) ? this.doc.sides : []).forEach((sd, i) => {
      if (!sd || typeof sd !== 'object') return;
      const [cls, colour] = SIDES[i % 2];
      const text = `${sd.name || sd.id || `side ${i + 1}`} — base edge`;
      const at = { north: [w / 2, -3, 0], south: [w / 2, d + 4, 0], west: [-3.2, d / 2, -90], east: [w + 3.2, d / 2, 90] }[sd.edge];
      if (!at) return;
      labels.push(s(`text.fe-base.c-${cls}`, {
        x: at[0], y: at[1], 'text-anchor': 'middle', 'font-size': 1.6, 'font-weight': 700, fill: colour,
        transform: at[2] ? `rotate(${at[2]} ${at[0]} ${at[1]})` : null, dataset: { edge: sd.edge }, text,
      }));
    });
    fill(this.layers.ground, ...ground);
    fill(this.layers.features, ...this.tableFeatures());
    fill(this.layers.marks, ...marks);
    fill(this.layers.labels, ...labels);
  }

  /** The features of the table: areas filled, lines stroked, the selected one with its points' handles. */
  tableFeatures() {
    const list = Array.isArray(this.doc.field.features) ? this.doc.field.features : [];
    const path = (ps, close) => ps.map((p, i) => `${i ? 'L' : 'M'}${p[0]} ${p[1]}`).join(' ') + (close ? ' Z' : '');
    const areas = [], lines = [], handles = [];
    list.forEach((f, i) => {
      if (!f || typeof f !== 'object') return;
      const where = `field.features[${i}]`;
      const sel = this.selected === where;
      const colour = FEATURE[f.type] || OTHER[i % OTHER.length];
      const pts = (Array.isArray(f.area) ? f.area : Array.isArray(f.line) ? f.line : []).filter(isPoint);
      const title = s('title', { text: [f.name || f.id || '', String(f.type || '').replace(/-/g, ' ')].filter(Boolean).join(', ') });
      const data = { feature: String(i), type: f.type || '' };
      if (Array.isArray(f.area) && pts.length) {
        areas.push(s('path', {
          class: `fe-feature fe-area${sel ? ' selected' : ''}`, d: path(pts, true), fill: colour, 'fill-opacity': 0.7,
          stroke: sel ? '#d18b00' : colour, 'stroke-width': sel ? 0.3 : 0.12, dataset: data,
        }, title));
        // a town's blocks inside it
        for (const b of Array.isArray(f.blocks) ? f.blocks : []) {
          const corners = Array.isArray(b) ? b.filter(isPoint) : [];
          if (corners.length > 2) areas.push(s('path.fe-block', { d: path(corners, true), fill: shade(colour, 0.25), 'fill-opacity': 0.8, stroke: shade(colour, 0.5), 'stroke-width': 0.08, 'pointer-events': 'none' }));
        }
      } else if (pts.length) {
        const wd = Number(f.width) > 0 ? Number(f.width) : 0.4;
        lines.push(s('path', {
          class: `fe-feature fe-line${sel ? ' selected' : ''}`, d: path(pts, false), fill: 'none', stroke: colour,
          'stroke-width': Math.max(wd, 0.3), 'stroke-linecap': 'round', 'stroke-linejoin': 'round', dataset: data,
        }, title));
        // a wider line, unseen, over it to take the pointer
        lines.push(s('path.fe-feature.fe-grab', { d: path(pts, false), fill: 'none', stroke: 'transparent', 'stroke-width': 1.6, dataset: data }));
        if (sel) lines.push(s('path.fe-outline', { d: path(pts, false), fill: 'none', stroke: '#d18b00', 'stroke-width': 0.12, 'pointer-events': 'none' }));
      }
      if (sel && this.tool.kind === 'select') {
        pts.forEach((p, k) => handles.push(s('circle.fe-handle', { cx: p[0], cy: p[1], r: 0.6, fill: '#fff', stroke: '#d18b00', 'stroke-width': 0.2, dataset: { handle: `point:${i}:${k}` } })));
      }
    });
    this.featureHandles = handles;
    return [...areas, ...lines];
  }

  // ---- the hex map -------------------------------------------------------------------

  /** The terrain kinds of the rule set: [{letter, name}], clear first. */
  hexKinds() {
    const t = this.info && this.info.terrain;
    const list = t && Array.isArray(t.hexes) ? t.hexes : [];
    return list.map((k) => (typeof k === 'string' ? { letter: k[0], name: k } : { letter: String(k.letter || '?')[0], name: String(k.name || k.letter) }));
  }

  /** The names of the rule set's hexside features or roads. @param {'hexsides'|'roads'} what */
  lineKinds(what) {
    const t = this.info && this.info.terrain;
    const list = t && Array.isArray(t[what]) ? t[what] : [];
    return list.map((k) => (typeof k === 'string' ? k : String(k.name || '')));
  }

  /** The colour of a hex's terrain letter. */
  terrainColour(letter) {
    const kinds = this.hexKinds();
    const i = kinds.findIndex((k) => k.letter === letter);
    if (i < 0) return '#eeeeee';
    return TERRAIN[kinds[i].name] || OTHER[i % OTHER.length];
  }

  clearLetter() { const k = this.hexKinds(); return k.length ? k[0].letter : '.'; }

  strokeOf(name, i) { return STROKES[name] || LINES[i % LINES.length]; }

  /** A cell's fill: its terrain's colour, darker for each level of height. */
  cellFill(letter, level) {
    return shade(this.terrainColour(letter), Math.min(0.5, 0.07 * level));
  }

  drawHexes() {
    const g = this.grid;
    const m = this.doc.map;
    const clear = this.clearLetter();
    const terrain = readGrid(m.terrain, g.columns, g.rows, clear);
    const levels = readGrid(m.elevation, g.columns, g.rows, '0');
    const backdrop = !!this.imageDoc();
    const cells = [], labels = [], marks = [];
    // The hexes are drawn again only when they change: the page shows the
    // document again at each key typed in its forms.
    const key = JSON.stringify([g.columns, g.rows, g.layout, g.first, g.digits, m.terrain, m.elevation, backdrop, this.hexKinds()]);
    const same = key === this.hexKey && this.layers.ground.childElementCount > 0;
    this.hexKey = key;
    /** Each hex's polygon, by its index (row by row). */
    if (!same) this.cells = [];
    // on a large map, the label of every fifth column and row only
    const every = g.columns * g.rows > 4000 ? 5 : 1;
    for (let r = 0; !same && r < g.rows; r++) {
      for (let c = 0; c < g.columns; c++) {
        const p = g.centre(c, r);
        const label = g.label(c, r);
        const letter = terrain[r][c], level = Number(levels[r][c]) || 0;
        const cell = s('polygon.fe-hex', {
          points: g.corners(p), fill: this.cellFill(letter, level), 'fill-opacity': backdrop ? (letter === clear && !level ? 0.05 : 0.45) : 1,
          stroke: '#9a927a', 'stroke-width': 0.04, dataset: { hex: label, terrain: letter, level: String(level) },
        });
        this.cells.push(cell);
        cells.push(cell);
        if (c % every === 0 && r % every === 0) labels.push(s('text.fe-hexlbl', { x: p.x, y: p.y - 0.58, 'text-anchor': 'middle', 'font-size': 0.28, fill: '#5c5646', text: label }));
        if (level) labels.push(s('text.fe-level', { x: p.x, y: p.y + 0.75, 'text-anchor': 'middle', 'font-size': 0.3, fill: '#5c5646', dataset: { level: label }, text: String(level) }));
      }
    }
    // roads, then hexsides over them
    const sideKinds = this.lineKinds('hexsides'), roadKinds = this.lineKinds('roads');
    const roads = m.roads && typeof m.roads === 'object' ? m.roads : {};
    for (const [what, chains] of Object.entries(roads)) {
      if (!Array.isArray(chains)) continue;
      const colour = this.strokeOf(what, roadKinds.indexOf(what));
      chains.forEach((chain, i) => {
        const pts = items(chain).map((l) => g.parse(l)).filter(Boolean).map(([c, r]) => g.centre(c, r));
        if (pts.length < 2) return;
        marks.push(s('polyline.fe-road', {
          points: pts.map((p) => `${p.x},${p.y}`).join(' '), fill: 'none', stroke: colour, 'stroke-width': what.includes('minor') ? 0.14 : 0.22,
          'stroke-linecap': 'round', 'stroke-linejoin': 'round', dataset: { road: what, chain: String(i) },
        }));
      });
    }
    const sides = m.hexsides && typeof m.hexsides === 'object' ? m.hexsides : {};
    for (const [what, text] of Object.entries(sides)) {
      const colour = this.strokeOf(what, sideKinds.indexOf(what));
      for (const it of items(typeof text === 'string' ? text : '')) {
        const [la, lb] = it.split('/');
        const a = g.parse(la), b = g.parse(lb);
        if (!a || !b) continue;
        const pa = g.centre(a[0], a[1]), pb = g.centre(b[0], b[1]);
        const mx = (pa.x + pb.x) / 2, my = (pa.y + pb.y) / 2;
        const len = Math.hypot(pb.x - pa.x, pb.y - pa.y) || 1;
        const px = (-(pb.y - pa.y) / len) * 0.5, py = ((pb.x - pa.x) / len) * 0.5;
        marks.push(s('line.fe-side', { x1: mx + px, y1: my + py, x2: mx - px, y2: my - py, stroke: colour, 'stroke-width': 0.16, 'stroke-linecap': 'round', dataset: { side: what, hexes: it } }));
      }
    }
    if (!same) {
      fill(this.layers.ground, ...cells);
      fill(this.layers.labels, ...labels);
    }
    fill(this.layers.features);
    this.featureHandles = [];
    fill(this.layers.marks, ...marks);
  }

  // ---- pieces ------------------------------------------------------------------------

  drawPieces() {
    const sp = this.space();
    const out = [], handles = [...(this.featureHandles || [])];
    const all = pieces(this.doc);
    if (sp === 'hex') {
      const byHex = new Map();
      for (const pc of all) {
        const hx = typeof pc.piece.at === 'string' ? this.grid.parse(pc.piece.at) : null;
        if (!hx) continue;
        const k = `${hx[0]},${hx[1]}`;
        if (!byHex.has(k)) byHex.set(k, []);
        byHex.get(k).push({ pc, hx });
      }
      for (const list of byHex.values()) list.forEach(({ pc, hx }, k) => out.push(this.hexPiece(pc, hx, k, list.length)));
    } else {
      for (const pc of all) {
        if (!isPoint(pc.piece.at)) continue;
        out.push(this.tablePiece(pc));
        if (pc.unit && pc.path === this.selected && this.tool.kind === 'select') {
          const a = (Number(pc.piece.facing) || 0) * Math.PI / 180;
          const [x, y] = pc.piece.at;
          const hx = x + Math.sin(a) * 2.6, hy = y - Math.cos(a) * 2.6;
          handles.push(s('line.fe-rotate-arm', { x1: x, y1: y, x2: hx, y2: hy, stroke: '#d18b00', 'stroke-width': 0.1, 'pointer-events': 'none' }),
            s('circle.fe-handle.fe-rotate', { cx: hx, cy: hy, r: 0.6, fill: '#fff', stroke: '#d18b00', 'stroke-width': 0.2, dataset: { handle: 'rotate' } },
              s('title', { text: 'Drag to turn the unit' })));
        }
      }
    }
    // the marks over the pieces: small, and never hidden under a counter
    fill(this.layers.pieces, ...out, ...this.drawMarks());
    fill(this.layers.handles, ...handles);
  }

  /** Where a mark or a general stands in field units, or null if not on the field. */
  pointOf(at) {
    if (this.space() === 'hex') {
      const hx = typeof at === 'string' ? this.grid.parse(at) : null;
      return hx ? this.grid.centre(hx[0], hx[1]) : null;
    }
    return isPoint(at) ? { x: Number(at[0]), y: Number(at[1]) } : null;
  }

  /**
   * The headquarters and order objectives the document sets: a flag
   * marked HQ, a target with the formation's id and a dashed line from its
   * general. Each is a group at its position (as a piece is, so that a drag
   * moves it alike) over what it draws.
   */
  drawMarks() {
    const hex = this.space() === 'hex';
    const k = hex ? 0.3 : 1; // a hex's radius is about three inches drawn
    const lines = [], out = [];
    for (const m of marks(this.doc)) {
      const c = this.pointOf(m.at);
      if (!c) continue;
      const [cls, colour] = SIDES[m.side % 2];
      const sel = m.owner === this.selected;
      const ring = sel ? '#d18b00' : colour;
      const attrs = { class: `fe-mark fe-${m.kind} c-${cls}${sel ? ' selected' : ''}`, transform: `translate(${num(c.x)} ${num(c.y)})`, dataset: { mark: m.path, kind: m.kind, owner: m.owner } };
      if (m.kind === 'hq') {
        // a flag on a pole whose foot is the place; on a hex, off to the
        // west of the centre, where a piece's counter leaves room
        out.push(s('g', attrs, s('title', { text: `Army headquarters${typeof m.at === 'string' ? ` in ${m.at}` : ''}` }),
          s('g', { transform: hex ? 'translate(-0.6 0.35)' : null },
            s('line', { x1: 0, y1: 0, x2: 0, y2: -2.6 * k, stroke: '#1d2126', 'stroke-width': 0.12 * k }),
            s('rect.fe-flag', { x: 0, y: -2.6 * k, width: 2 * k, height: 1.2 * k, fill: colour, stroke: ring, 'stroke-width': (sel ? 0.2 : 0.08) * k }),
            s('text.fe-name', { x: k, y: -1.75 * k, 'text-anchor': 'middle', 'font-size': 0.8 * k, fill: '#fff', 'font-weight': 700, text: m.label }))));
        continue;
      }
      const g = m.from !== undefined ? this.pointOf(m.from) : null;
      // on a hex, to the target drawn off the centre
      if (g) lines.push(s('line.fe-aim', { x1: num(g.x), y1: num(g.y), x2: num(c.x + (hex ? 0.5 : 0)), y2: num(c.y + (hex ? 0.3 : 0)), stroke: colour, 'stroke-width': 0.1 * k, 'stroke-dasharray': `${0.6 * k} ${0.4 * k}`, 'pointer-events': 'none', dataset: { aim: m.path } }));
      // a target; on a hex, off to the east of the centre
      out.push(s('g', attrs, s('title', { text: `Objective of ${m.label}${typeof m.at === 'string' ? ` in ${m.at}` : ''}` }),
        s('g', { transform: hex ? 'translate(0.5 0.3)' : null },
          s('circle.fe-target', { cx: 0, cy: 0, r: 0.9 * k, fill: '#fff', 'fill-opacity': 0.8, stroke: ring, 'stroke-width': (sel ? 0.3 : 0.18) * k }),
          s('circle', { cx: 0, cy: 0, r: 0.4 * k, fill: 'none', stroke: colour, 'stroke-width': 0.14 * k }),
          s('circle', { cx: 0, cy: 0, r: 0.12 * k, fill: colour }),
          s('text.fe-name', { x: 0, y: 1.1 * k, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', 'font-size': 0.9 * k, fill: colour, 'font-weight': 700, text: m.label }))));
    }
    return [...lines, ...out];
  }

  /** A piece's name on the field: its name, or its id, kept short. */
  short(p) {
    const t = String(p.name || p.id || '?');
    return t.length > 10 ? `${t.slice(0, 9)}…` : t;
  }

  /** Whether the piece at path belongs to the selected formation or side. @param {string} path */
  within(path) {
    const sel = this.selected;
    return !!sel && /^sides\[\d+\]/.test(sel) && (path.startsWith(`${sel}.`) || path.startsWith(`${sel}[`));
  }

  tablePiece(pc) {
    const p = pc.piece;
    const [cls, colour] = SIDES[pc.side % 2];
    const [x, y] = p.at;
    const sel = pc.path === this.selected, within = this.within(pc.path);
    const title = s('title', { text: `${p.name || p.id || ''}${p.id && p.name ? ` (${p.id})` : ''}` });
    const data = { piece: pc.path, kind: pc.unit ? 'unit' : 'general' };
    const attrs = { class: `fe-piece c-${cls}${sel ? ' selected' : within ? ' within' : ''}`, transform: `translate(${x} ${y})`, dataset: data };
    if (pc.unit) {
      const f = Number(p.facing) || 0;
      return s('g', attrs, title,
        s('g', { transform: f ? `rotate(${f})` : null },
          s('rect.fe-base', { x: -BASE.w / 2, y: 0, width: BASE.w, height: BASE.d, fill: colour, 'fill-opacity': 0.85, stroke: sel || within ? '#d18b00' : '#1d2126', 'stroke-width': sel ? 0.25 : within ? 0.15 : 0.06 }),
          s('line.fe-front', { x1: -BASE.w / 2, y1: 0, x2: BASE.w / 2, y2: 0, stroke: '#111', 'stroke-width': 0.22 })),
        tableName(s('text.fe-name.fe-uname', { x: 0, y: BASE.d + 0.3, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', fill: '#22272b', visibility: sel || this.namesOn ? null : 'hidden', text: this.short(p) })));
    }
    return s('g', attrs, title,
      s('circle.fe-gen', { cx: 0, cy: 0, r: 0.8, fill: '#fff', stroke: sel || within ? '#d18b00' : colour, 'stroke-width': sel ? 0.35 : 0.25 }),
      s('circle', { cx: 0, cy: 0, r: 0.35, fill: colour }),
      tableName(s('text.fe-name', { x: 0, y: 1, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', fill: colour, 'font-weight': 700, text: this.short(p) })));
  }

  hexPiece(pc, hx, k, n) {
    const p = pc.piece;
    const [cls, colour] = SIDES[pc.side % 2];
    const c = this.grid.centre(hx[0], hx[1]);
    const off = n > 1 ? (k - (n - 1) / 2) * 0.22 : 0;
    const sel = pc.path === this.selected, within = this.within(pc.path);
    const title = s('title', { text: `${p.name || p.id || ''}${p.id && p.name ? ` (${p.id})` : ''} in ${p.at}` });
    const attrs = { class: `fe-piece c-${cls}${sel ? ' selected' : within ? ' within' : ''}`, transform: `translate(${num(c.x + off)} ${num(c.y + off)})`, dataset: { piece: pc.path, kind: pc.unit ? 'unit' : 'general', hex: p.at } };
    if (pc.unit) {
      return s('g', attrs, title,
        s('rect.fe-counter', { x: -0.45, y: -0.32, width: 0.9, height: 0.64, rx: 0.05, fill: colour, stroke: sel || within ? '#d18b00' : '#1d2126', 'stroke-width': sel ? 0.1 : within ? 0.07 : 0.03 }),
        s('text.fe-name', { x: 0, y: 0.08, 'text-anchor': 'middle', 'font-size': 0.2, fill: '#fff', text: this.short(p) }));
    }
    return s('g', attrs, title,
      s('circle.fe-gen', { cx: 0, cy: 0, r: 0.3, fill: '#fff', stroke: sel || within ? '#d18b00' : colour, 'stroke-width': sel ? 0.1 : 0.07 }),
      s('text.fe-name', { x: 0, y: 0.06, 'text-anchor': 'middle', 'font-size': 0.16, fill: colour, 'font-weight': 700, text: this.short(p).slice(0, 5) }));
  }

  /** The feature being drawn, the road being laid, the calibration's points. */
  drawDraft() {
    const out = [];
    if (this.draft && this.draft.points.length) {
      const pts = [...this.draft.points, ...(this.hover ? [[this.hover.x, this.hover.y]] : [])];
      const colour = FEATURE[this.draft.type] || '#555';
      out.push(s('polyline.fe-draft', { points: pts.map((p) => p.join(',')).join(' '), fill: this.draft.area ? colour : 'none', 'fill-opacity': 0.35, stroke: '#d18b00', 'stroke-width': 0.15, 'stroke-dasharray': '0.5 0.3' }));
      for (const p of this.draft.points) out.push(s('circle.fe-draftpt', { cx: p[0], cy: p[1], r: 0.35, fill: '#d18b00' }));
    }
    if (this.chain && this.grid) {
      const c = this.grid.centre(this.chain.last[0], this.chain.last[1]);
      out.push(s('circle.fe-chainend', { cx: c.x, cy: c.y, r: 0.3, fill: 'none', stroke: '#d18b00', 'stroke-width': 0.1 }));
    }
    if (this.dropping) {
      // where a piece dragged from the tree would go
      if (this.grid) out.push(s('polygon.fe-dropping', { points: this.grid.corners(this.grid.centre(this.dropping[0], this.dropping[1]), 0.92), fill: 'none', stroke: '#d18b00', 'stroke-width': 0.12 }));
      else out.push(s('circle.fe-dropping', { cx: this.dropping[0], cy: this.dropping[1], r: 1, fill: 'none', stroke: '#d18b00', 'stroke-width': 0.2 }));
    }
    if (this.cal) {
      const r = this.space() === 'hex' ? 0.25 : 0.7;
      for (const p of [this.cal.f1, this.cal.f2]) if (p) out.push(s('circle.fe-calpt', { cx: p.x, cy: p.y, r, fill: 'none', stroke: '#c0206a', 'stroke-width': r / 3 }), s('circle', { cx: p.x, cy: p.y, r: r / 5, fill: '#c0206a' }));
    }
    fill(this.layers.draft, ...out);
  }

  // ---- the view: pan and zoom ----------------------------------------------------------

  fit() {
    const b = this.bounds();
    const r = this.svg.getBoundingClientRect();
    if (r.width > 20 && r.height > 20) {
      const k = Math.min(r.width / b.w, r.height / b.h);
      const vw = r.width / k, vh = r.height / k;
      // centred across, at the top of a field taller than it
      this.view = { x: b.x - (vw - b.w) / 2, y: b.y, w: vw, h: vh };
    } else {
      this.view = { ...b };
    }
    this.userMoved = false;
    this.applyView();
  }

  zoom(factor, about) {
    const b = this.bounds();
    this.view = zoomed(this.view, factor, about, this.space() === 'hex' ? 3 : 6, Math.max(b.w, b.h) * 2);
    this.userMoved = true;
    this.applyView();
  }

  applyView() {
    showView(this.svg, this.view, this.space() === 'hex' ? [40, 22, 12] : [34, 18, 9], this.space() === 'hex' ? 20 : 6);
    // units' names on a table once there is room for them: 18 pixels an inch
    const r = this.svg.getBoundingClientRect();
    const on = r.width > 0 && r.width / this.view.w >= 18;
    if (on !== this.namesOn) {
      this.namesOn = on;
      for (const el of this.vp.querySelectorAll('.fe-uname')) {
        if (on || el.closest('.selected')) el.removeAttribute('visibility'); else el.setAttribute('visibility', 'hidden');
      }
    }
  }

  /** The field point under a client point. */
  toField(cx, cy) { return mapPoint(this.vp, cx, cy); }

  /** The client point of a field point: for tests and tools. */
  toScreen(x, y) { return mapPoint(this.vp, x, y, true); }

  /** The client point of a hex's centre by its label, or null. @param {string} label */
  hexScreen(label) {
    const hx = this.grid && this.grid.parse(label);
    if (!hx) return null;
    const c = this.grid.centre(hx[0], hx[1]);
    return this.toScreen(c.x, c.y);
  }

  // ---- input ---------------------------------------------------------------------------

  listen() {
    const svg = this.svg;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      if (ev.shiftKey && this.turnSelected(ev.deltaY > 0 ? 15 : -15)) return;
      this.zoom(Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015)), mapPoint(svg, ev.clientX, ev.clientY));
    }, { passive: false });
    svg.addEventListener('pointerdown', (ev) => this.down(ev));
    svg.addEventListener('pointermove', (ev) => this.moveTo(ev));
    svg.addEventListener('pointerup', (ev) => this.up(ev, false));
    svg.addEventListener('pointercancel', (ev) => this.up(ev, true));
    svg.addEventListener('contextmenu', (ev) => ev.preventDefault());
    svg.addEventListener('dblclick', (ev) => { ev.preventDefault(); if (this.draft) this.finishDraft(true); });
    svg.addEventListener('keydown', (ev) => this.key(ev));
    svg.addEventListener('dragover', (ev) => {
      if (!ev.dataTransfer || !ev.dataTransfer.types.includes(PATH_TYPE) || !this.space()) return;
      ev.preventDefault();
      ev.dataTransfer.dropEffect = 'move';
      const to = this.spot(this.toField(ev.clientX, ev.clientY));
      if (JSON.stringify(to) !== JSON.stringify(this.dropping)) { this.dropping = to; this.drawDraft(); }
    });
    svg.addEventListener('dragleave', () => { if (this.dropping) { this.dropping = null; this.drawDraft(); } });
    svg.addEventListener('drop', (ev) => {
      if (!ev.dataTransfer || !ev.dataTransfer.types.includes(PATH_TYPE)) return;
      ev.preventDefault();
      this.dropping = null;
      const p = this.toField(ev.clientX, ev.clientY);
      this.place(ev.dataTransfer.getData(PATH_TYPE), p, true);
    });
  }

  /** @param {PointerEvent} ev */
  down(ev) {
    if (!this.doc || !this.space()) return;
    const mouse = ev.pointerType === 'mouse';
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    try { this.svg.setPointerCapture(ev.pointerId); } catch { /* synthetic pointers */ }
    this.svg.focus({ preventScroll: true });
    if (this.pointers.size === 2) {
      // a second finger: pinch, and what the first was doing is dropped
      this.endGesture(true);
      const [a, b] = [...this.pointers.values()];
      this.gesture = { type: 'pinch', dist: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
      return;
    }
    if (this.pointers.size > 2) return;
    const base = { sx: ev.clientX, sy: ev.clientY, lx: ev.clientX, ly: ev.clientY, moved: false };
    if (mouse && ev.button !== 0) { this.gesture = { type: 'pan', ...base }; return; }
    const p = this.toField(ev.clientX, ev.clientY);
    const t = /** @type {Element} */ (ev.target);
    const kind = this.tool.kind;
    if (kind === 'select') {
      const handle = t.closest('[data-handle]');
      if (handle) {
        this.gesture = { type: 'handle', handle: handle.getAttribute('data-handle'), ...base };
        ev.preventDefault();
        return;
      }
      const mark = t.closest('[data-mark]');
      if (mark) {
        const path = mark.getAttribute('data-mark');
        const at = this.space() === 'table' ? getPath(this.doc, path) : null;
        this.gesture = { type: 'piece', mark: true, path, el: mark, grab: isPoint(at) ? [p.x - at[0], p.y - at[1]] : [0, 0], ...base };
        ev.preventDefault();
        return;
      }
      const piece = t.closest('[data-piece]');
      if (piece) {
        const path = piece.getAttribute('data-piece');
        const pc = getPath(this.doc, path);
        const at = this.space() === 'table' && pc && isPoint(pc.at) ? pc.at : null;
        this.gesture = { type: 'piece', path, el: piece, grab: at ? [p.x - at[0], p.y - at[1]] : [0, 0], ...base };
        ev.preventDefault();
        return;
      }
      const feature = t.closest('[data-feature]');
      if (feature) {
        const where = `field.features[${feature.getAttribute('data-feature')}]`;
        this.gesture = { type: 'feature', where, from: p, ...base };
        return;
      }
      this.gesture = { type: 'pan', tap: true, ...base };
      return;
    }
    if (kind === 'terrain' || kind === 'elevation') {
      // the grid as it was, should a second finger make the stroke a pinch
      const key = kind === 'terrain' ? 'terrain' : 'elevation';
      this.gesture = { type: 'paint', done: new Set(), changed: false, key, before: this.doc.map[key], ...base };
      this.paint(p);
      ev.preventDefault();
      return;
    }
    if (kind === 'calibrate' && this.cal && this.cal.step === 'place') {
      this.gesture = { type: 'image', from: p, ...base };
      return;
    }
    this.gesture = { type: 'pan', tap: true, ...base };
  }

  /** @param {PointerEvent} ev */
  moveTo(ev) {
    if (!this.pointers.has(ev.pointerId)) {
      // the pointer hovering: the rubber band of a feature being drawn
      if (this.draft && this.doc) { this.hover = this.toField(ev.clientX, ev.clientY); this.drawDraft(); }
      return;
    }
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    const g = this.gesture;
    if (!g) return;
    if (g.type === 'pinch') {
      if (this.pointers.size < 2) return;
      const [a, b] = [...this.pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
      this.panBy(mx - g.mx, my - g.my);
      if (g.dist > 0 && d > 0) this.zoom(d / g.dist, mapPoint(this.svg, mx, my));
      Object.assign(g, { dist: d, mx, my });
      return;
    }
    if (!g.moved && Math.hypot(ev.clientX - g.sx, ev.clientY - g.sy) < 5) return;
    g.moved = true;
    const p = this.toField(ev.clientX, ev.clientY);
    if (g.type === 'pan') {
      this.panBy(ev.clientX - g.lx, ev.clientY - g.ly);
    } else if (g.type === 'paint') {
      this.paint(p);
    } else if (g.type === 'piece') {
      g.to = this.spot(p, g.grab);
      if (!g.el.isConnected) g.el = this.vp.querySelector(`[data-${g.mark ? 'mark' : 'piece'}="${CSS.escape(g.path)}"]`) || g.el;
      if (g.to !== null) {
        const c = this.space() === 'hex' ? this.grid.centre(g.to[0], g.to[1]) : { x: g.to[0], y: g.to[1] };
        g.el.setAttribute('transform', `translate(${num(c.x)} ${num(c.y)})`);
        g.el.classList.add('dragging');
      }
    } else if (g.type === 'handle') {
      this.dragHandle(g.handle, p);
    } else if (g.type === 'feature') {
      g.type = this.selected === g.where ? 'feature-move' : 'pan';
      g.orig = structuredClone(getPath(this.doc, g.where));
    }
    if (g.type === 'feature-move') this.moveFeature(g, p);
    if (g.type === 'image') this.moveImage(g, p);
    g.lx = ev.clientX;
    g.ly = ev.clientY;
  }

  /** @param {PointerEvent} ev @param {boolean} cancelled */
  up(ev, cancelled) {
    if (!this.pointers.has(ev.pointerId)) return;
    this.pointers.delete(ev.pointerId);
    const g = this.gesture;
    if (!g) return;
    if (g.type === 'pinch') { if (this.pointers.size === 0) this.gesture = null; return; }
    this.gesture = null;
    if (cancelled) { this.endGesture(true, g); return; }
    const p = this.toField(ev.clientX, ev.clientY);
    if (!g.moved) {
      // a tap
      // a mark's tap picks what it belongs to: the side, or the formation
      if (g.type === 'piece' && g.mark) { this.pick(g.el.getAttribute('data-owner') || ''); return; }
      if (g.type === 'piece' || g.type === 'feature') { this.pick(g.type === 'piece' ? g.path : g.where); return; }
      if (g.type === 'pan' && g.tap) { this.tap(p); return; }
      if (g.type === 'image') { this.calPlace(p); return; }
    }
    this.endGesture(false, g);
  }

  /**
   * Ends a gesture. A stroke or a piece's drag is dropped if cancelled (a
   * second finger down makes it a pinch); what a handle's drag changed on
   * the way stays, and the page is told.
   */
  endGesture(cancelled, g = this.gesture) {
    this.gesture = null;
    if (!g) return;
    if (g.type === 'paint' && g.changed) {
      if (!cancelled) { this.edited(`map.${g.key}`); return; }
      if (g.before === undefined) delete this.doc.map[g.key]; else this.doc.map[g.key] = g.before;
      this.draw();
      return;
    }
    if (g.type === 'piece' && g.moved) {
      if (cancelled || g.to === undefined || g.to === null) { this.draw(); return; }
      if (g.mark) this.placeMark(g.path, g.to);
      else this.place(g.path, null, false, g.to);
      return;
    }
    if (g.type === 'handle' && g.moved) { this.edited(this.selected); return; }
    if (g.type === 'feature-move' && g.moved) { this.edited(g.where); return; }
    if (g.type === 'image' && g.moved) this.edited(this.imagePath());
  }

  panBy(dx, dy) {
    const m = this.svg.getScreenCTM();
    const k = m ? 1 / m.a : 0.1;
    this.view.x -= dx * k;
    this.view.y -= dy * k;
    this.userMoved = true;
    this.applyView();
  }

  /** Selects a piece or a feature by its path ('' for none), and tells the page. */
  pick(path) {
    if (this.draft || this.chain) return;
    this.selected = path;
    this.own = path;
    this.draw();
    this.hooks.select(path);
  }

  /** A tap on the field, not on a piece: the tool's click. */
  tap(p) {
    const kind = this.tool.kind;
    if (kind === 'select') {
      // a piece selected in the tree and not yet on the field goes where
      // the field is tapped: a tablet may drag nothing from the tree
      const pc = pieces(this.doc).find((x) => x.path === this.selected);
      if (pc && (pc.piece.at === undefined || pc.piece.at === null)) { this.place(pc.path, p, true); return; }
      if (this.selected) this.pick('');
      return;
    }
    if (kind === 'area' || kind === 'line') { this.addDraftPoint(p); return; }
    if (kind === 'hexside') { this.toggleHexside(p); return; }
    if (kind === 'road') { this.addRoadHex(p); return; }
    if (kind === 'calibrate') this.calClick(p);
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    if (ev.key === 'Enter') {
      if (this.draft) { this.finishDraft(false); ev.preventDefault(); } else if (this.chain) { this.endChain(); ev.preventDefault(); }
    } else if (ev.key === 'Escape') {
      if (this.draft || this.chain || this.cal) { this.draft = null; this.chain = null; this.cal = null; this.setTool({ kind: 'select' }); ev.preventDefault(); }
    } else if (ev.key === 'Backspace' || ev.key === 'Delete') {
      if (this.draft) { this.draft.points.pop(); this.drawDraft(); ev.preventDefault(); } else if (this.chain) { this.undoRoadHex(); ev.preventDefault(); } else if (/^field\.features\[\d+\]$/.test(this.selected)) { this.deleteFeature(); ev.preventDefault(); }
    } else if (ev.key === '[' || ev.key === ']') {
      if (this.turnSelected(ev.key === ']' ? 15 : -15)) ev.preventDefault();
    }
  }

  // ---- editing ---------------------------------------------------------------------------

  /** The document changed here: draw it and tell the page. @param {string} path */
  edited(path) {
    this.draw();
    this.hooks.changed(this.doc, path);
  }

  /**
   * Where a piece would stand for field point p: [x, y] rounded to half an
   * inch on a table (less the point it was grabbed by), [column, row] of
   * the hex on a hex map; null off the map.
   */
  spot(p, grab = [0, 0]) {
    if (this.space() === 'hex') return this.grid.at(p.x, p.y);
    return [snap(p.x - grab[0], 0.5), snap(p.y - grab[1], 0.5)];
  }

  /**
   * Sets the at of the piece at path: to the spot under field point p, or
   * to spot. A dropped unit on a table without a facing faces away from
   * its side's base edge.
   * @param {string} path @param {{x:number,y:number}|null} p @param {boolean} dropped @param {number[]} [spot]
   */
  place(path, p, dropped, spot) {
    const pc = pieces(this.doc).find((x) => x.path === path);
    if (!pc) { this.say(`${path || 'That'} is not a general or a unit of this scenario.`); return; }
    const at = spot || this.spot(p);
    if (!at) { this.say('Drop the piece on a hex of the map.'); this.draw(); return; }
    if (this.space() === 'hex') pc.piece.at = this.grid.label(at[0], at[1]);
    else {
      pc.piece.at = at;
      if (dropped && pc.unit && pc.piece.facing === undefined) {
        const edge = ((this.doc.sides || [])[pc.side] || {}).edge;
        if (edge in FACING) pc.piece.facing = FACING[edge];
      }
    }
    this.say('');
    this.edited(path);
  }

  /**
   * Moves a headquarters or an objective (path) to spot: a hex's label on
   * a hex map, [x, y] on the half inch on a table.
   * @param {string} path @param {number[]} spot
   */
  placeMark(path, spot) {
    const m = marks(this.doc).find((x) => x.path === path);
    if (!m) { this.draw(); return; }
    m.holder[m.key] = this.space() === 'hex' ? this.grid.label(spot[0], spot[1]) : spot;
    this.say('');
    this.edited(path);
  }

  /** Turns the selected unit on a table by deg; false if none is. */
  turnSelected(deg) {
    if (this.space() !== 'table') return false;
    const pc = pieces(this.doc).find((x) => x.path === this.selected && x.unit);
    if (!pc || !isPoint(pc.piece.at)) return false;
    pc.piece.facing = norm(Math.round(((Number(pc.piece.facing) || 0) + deg) / 15) * 15);
    this.edited(pc.path);
    return true;
  }

  /** Drags a handle: a feature's point, or the selected unit's facing. */
  dragHandle(handle, p) {
    if (handle === 'rotate') {
      const u = getPath(this.doc, this.selected);
      if (!u || !isPoint(u.at)) return;
      const a = (Math.atan2(p.x - u.at[0], -(p.y - u.at[1])) * 180) / Math.PI;
      u.facing = norm(Math.round(a / 5) * 5);
      this.draw();
      return;
    }
    const [, i, k] = handle.split(':').map(Number);
    const f = (this.doc.field.features || [])[i];
    const pts = f && (Array.isArray(f.area) ? f.area : f.line);
    if (!pts || !pts[k]) return;
    pts[k] = [snap(p.x, 0.5), snap(p.y, 0.5)];
    this.draw();
  }

  moveFeature(g, p) {
    const f = getPath(this.doc, g.where);
    if (!f || !g.orig) return;
    const dx = snap(p.x - g.from.x, 0.5), dy = snap(p.y - g.from.y, 0.5);
    // the whole feature by half inches, its points otherwise as they were
    const shift = (ps) => ps.map((q) => (isPoint(q) ? [snap(Number(q[0]) + dx, 1e-6), snap(Number(q[1]) + dy, 1e-6)] : q));
    if (Array.isArray(g.orig.area)) f.area = shift(g.orig.area);
    if (Array.isArray(g.orig.line)) f.line = shift(g.orig.line);
    if (Array.isArray(g.orig.blocks)) f.blocks = g.orig.blocks.map(shift);
    this.draw();
  }

  // ---- the hex brushes -----------------------------------------------------------------

  /** Paints the hex under p with the brush, once a stroke. */
  paint(p) {
    const g = this.grid, st = this.gesture;
    if (!g || !st) return;
    const hx = g.at(p.x, p.y);
    if (!hx) return;
    const i = hx[1] * g.columns + hx[0];
    if (st.done.has(i)) return;
    st.done.add(i);
    const m = this.doc.map;
    const terrainKind = this.tool.kind === 'terrain';
    const key = terrainKind ? 'terrain' : 'elevation';
    const grid = readGrid(m[key], g.columns, g.rows, terrainKind ? this.clearLetter() : '0');
    const v = String(this.tool.arg);
    if (grid[hx[1]][hx[0]] === v && m[key]) return;
    grid[hx[1]][hx[0]] = v;
    m[key] = writeGrid(grid);
    st.changed = true;
    // the cell alone, at once; the rest when the stroke ends (or is undone)
    const cell = this.cells && this.cells[i];
    this.hexKey = '';
    if (cell) {
      const letter = terrainKind ? v : cell.dataset.terrain;
      const level = terrainKind ? Number(cell.dataset.level) : Number(v);
      cell.dataset.terrain = letter;
      cell.dataset.level = String(level);
      cell.setAttribute('fill', this.cellFill(letter, level));
      if (this.imageDoc()) cell.setAttribute('fill-opacity', letter === this.clearLetter() && !level ? '0.05' : '0.45');
    }
  }

  /** Adds the hexside nearest p to the brush's feature, or takes it out. */
  toggleHexside(p) {
    const g = this.grid;
    const side = g && g.sideAt(p.x, p.y);
    if (!side) return;
    const [a, b] = side.map(([c, r]) => g.label(c, r));
    const m = this.doc.map;
    if (!m.hexsides || typeof m.hexsides !== 'object') m.hexsides = {};
    const what = String(this.tool.arg);
    const text = toggleSide(m.hexsides[what], a, b);
    if (text) m.hexsides[what] = text;
    else delete m.hexsides[what];
    if (!Object.keys(m.hexsides).length) delete m.hexsides;
    this.edited(`map.hexsides.${what}`);
  }

  /**
   * Lays a road: the hex under p joins the chain being laid if it
   * neighbours its last hex; else a chain starts there (or goes on from a
   * chain of that kind that ends there). The same hex again ends the chain.
   */
  addRoadHex(p) {
    const g = this.grid;
    const hx = g && g.at(p.x, p.y);
    if (!hx) return;
    const what = String(this.tool.arg);
    const label = g.label(hx[0], hx[1]);
    const m = this.doc.map;
    const ch = this.chain;
    if (ch && ch.last[0] === hx[0] && ch.last[1] === hx[1]) { this.endChain(); return; }
    if (ch && g.adjacent(ch.last, hx)) {
      if (!m.roads || typeof m.roads !== 'object') m.roads = {};
      if (!Array.isArray(m.roads[what])) m.roads[what] = [];
      const list = m.roads[what];
      if (ch.index < 0) { list.push(`${g.label(ch.last[0], ch.last[1])} ${label}`); ch.index = list.length - 1; } else list[ch.index] = `${list[ch.index]} ${label}`;
      ch.last = hx;
      this.say('Click the next hex of the road; the last hex again, or Enter, ends it.');
      this.edited(`map.roads.${what}[${ch.index}]`);
      return;
    }
    // a new chain, or one of this kind that ends here goes on
    const list = (m.roads && Array.isArray(m.roads[what])) ? m.roads[what] : [];
    const index = list.findIndex((c) => { const its = items(c); return its[its.length - 1] === label; });
    this.chain = { what, index, last: hx };
    this.say(`Road from ${label}: click the next hex, a neighbour of this one.`);
    this.drawDraft();
  }

  endChain() {
    this.chain = null;
    this.say('');
    this.drawDraft();
  }

  /** Takes the last hex off the chain being laid. */
  undoRoadHex() {
    const ch = this.chain;
    const m = this.doc.map;
    if (!ch || ch.index < 0 || !m.roads || !Array.isArray(m.roads[ch.what])) { this.endChain(); return; }
    const list = m.roads[ch.what];
    const its = items(list[ch.index]);
    its.pop();
    if (its.length < 2) {
      list.splice(ch.index, 1);
      if (!list.length) delete m.roads[ch.what];
      if (!Object.keys(m.roads).length) delete m.roads;
      this.chain = its.length ? { what: ch.what, index: -1, last: this.grid.parse(its[0]) } : null;
    } else {
      list[ch.index] = its.join(' ');
      ch.last = this.grid.parse(its[its.length - 1]);
    }
    this.edited(`map.roads.${ch.what}`);
  }

  // ---- table features ----------------------------------------------------------------------

  addDraftPoint(p) {
    const t = this.table();
    const q = [Math.min(t.width, Math.max(0, snap(p.x, 0.5))), Math.min(t.depth, Math.max(0, snap(p.y, 0.5)))];
    if (!this.draft) this.draft = { type: String(this.tool.arg), area: this.tool.kind === 'area', points: [] };
    const last = this.draft.points[this.draft.points.length - 1];
    if (!last || last[0] !== q[0] || last[1] !== q[1]) this.draft.points.push(q);
    this.say(this.draft.area ? 'Click the next corner; double-click or Enter closes the area, Escape drops it.' : 'Click the next point; Enter (or a double-click) ends the line, Escape drops it.');
    this.drawDraft();
  }

  /** Ends the feature being drawn and adds it to field.features, if it has points enough. */
  finishDraft(dbl) {
    const d = this.draft;
    if (!d) return;
    const pts = d.points;
    if (dbl && pts.length > 1) {
      // the double-click's two clicks gave its point twice
      const [a, b] = pts.slice(-2);
      if (a[0] === b[0] && a[1] === b[1]) pts.pop();
    }
    if (pts.length < (d.area ? 3 : 2)) { this.say(d.area ? 'An area needs three corners at least.' : 'A line needs two points at least.'); return; }
    const f = this.doc.field;
    if (!Array.isArray(f.features)) f.features = [];
    const ids = new Set(f.features.map((x) => x && x.id));
    let n = 1;
    while (ids.has(`${d.type}-${n}`)) n++;
    f.features.push(d.area ? { id: `${d.type}-${n}`, type: d.type, area: pts } : { id: `${d.type}-${n}`, type: d.type, line: pts });
    this.draft = null;
    this.hover = null;
    const where = `field.features[${f.features.length - 1}]`;
    this.say('');
    this.edited(where);
  }

  deleteFeature() {
    const m = /^field\.features\[(\d+)\]$/.exec(this.selected);
    const list = this.doc.field && this.doc.field.features;
    if (!m || !Array.isArray(list) || !list[Number(m[1])]) return;
    list.splice(Number(m[1]), 1);
    if (!list.length) delete this.doc.field.features;
    this.selected = '';
    this.own = '';
    this.hooks.select('');
    this.edited('field.features');
  }

  // ---- the backdrop ----------------------------------------------------------------------

  imagePath() { return this.space() === 'hex' ? 'map.image' : 'field.image'; }

  /** The image pixel under field point p, at the image's calibration now. */
  pixelOf(p) {
    const pl = this.imagePlace();
    if (!pl) return null;
    return { x: (p.x - pl.x) / pl.kx, y: (p.y - pl.y) / pl.ky };
  }

  calClick(p) {
    const c = this.cal;
    if (!c || !this.imagePlace()) return;
    if (c.step === 'p1' || c.step === 'p2') {
      const px = this.pixelOf(p);
      const hx = this.grid ? this.grid.at(p.x, p.y) : null;
      if (c.step === 'p1') Object.assign(c, { f1: p, px1: px, label1: hx ? this.grid.label(hx[0], hx[1]) : '', step: this.grid ? 'l1' : 'p2' });
      else Object.assign(c, { f2: p, px2: px, label2: hx ? this.grid.label(hx[0], hx[1]) : '', step: this.grid ? 'l2' : 'dist' });
      this.renderCal();
      this.drawDraft();
    }
  }

  /** The place step: the image point clicked first goes to the point clicked now. */
  calPlace(p) {
    const c = this.cal;
    const im = this.imageDoc();
    if (!c || !im || !c.px1 || this.space() !== 'table') return;
    im.at = [round2(p.x - c.px1.x / im.scale), round2(p.y - c.px1.y / im.scale)];
    c.f1 = p;
    this.edited(this.imagePath());
  }

  moveImage(g, p) {
    const im = this.imageDoc();
    if (!im || this.space() !== 'table') return;
    const at = Array.isArray(im.at) ? im.at : [0, 0];
    im.at = [round2(at[0] + p.x - g.from.x), round2(at[1] + p.y - g.from.y)];
    if (this.cal && this.cal.f1) this.cal.f1 = { x: this.cal.f1.x + p.x - g.from.x, y: this.cal.f1.y + p.y - g.from.y };
    g.from = p;
    this.draw();
  }

  /** Works out the calibration from what was clicked and typed. */
  calApply() {
    const c = this.cal;
    const im = this.imageDoc();
    if (!c || !im) return;
    if (this.space() === 'hex') {
      const r = hexCalibration(this.grid, c.px1, c.label1, c.px2, c.label2);
      if ('error' in r) { this.say(`${cap(r.error)}.`); return; }
      Object.assign(im, { x0: round2(r.x0), y0: round2(r.y0), dx: round2(r.dx), dy: round2(r.dy) });
      this.cal = null;
      this.tool = { kind: 'select' };
      this.edited(this.imagePath());
      this.renderCal();
      this.say(`Backdrop lined up: ${c.label1} and ${c.label2} at the points clicked.`);
      return;
    }
    const r = tableScale(c.px1, c.px2, Number(c.inches));
    if ('error' in r) { this.say(`${cap(r.error)}.`); return; }
    // the first point keeps its place on the table
    im.scale = round2(r.scale);
    im.at = [round2(c.f1.x - c.px1.x / im.scale), round2(c.f1.y - c.px1.y / im.scale)];
    c.step = 'place';
    c.f2 = null;
    this.say('Scale set. Drag the image to move it, or click where the first point lies on the table; Done when it lines up.');
    this.renderCal();
    this.edited(this.imagePath());
  }

  // ---- the tool bar ----------------------------------------------------------------------------

  /** @param {Tool} tool */
  setTool(tool) {
    if (this.draft && (tool.kind !== this.tool.kind || tool.arg !== this.tool.arg)) this.draft = null;
    this.chain = null;
    this.hover = null;
    if (tool.kind === 'calibrate') {
      // an image still loading is lined up once it has come (calClick waits for it)
      if (!this.imageDoc()) { this.say('Choose a backdrop image first.'); return; }
      this.cal = { step: 'p1' };
      this.say(this.space() === 'hex' ? 'To line the image up with the map, click the centre of a hex printed on it.' : 'To scale the image, click a first point on it whose distance to a second you know.');
    } else {
      this.cal = null;
    }
    this.tool = tool;
    if (!this.cal) this.say('');
    this.draw();
    this.renderCal();
  }

  /** Says text under the tool bar; with none, what the tool in use does. */
  say(text) { this.hint.textContent = text || toolHint(this.tool, this.space(), this.hexKinds()); }

  /** Builds the tool bar again when the space or the rule set's kinds change; marks the tool in use. */
  updateTools() {
    const sp = this.space();
    const key = JSON.stringify([sp, this.info && this.info.terrain, this.info && this.info.features]);
    if (key !== this.toolKey) {
      this.toolKey = key;
      this.buildTools(sp);
      // a brush of another space or rule set is put down
      const t = this.tool;
      if (t.kind !== 'select' && !this.bar.querySelector(`[data-tool="${CSS.escape(t.arg === undefined ? t.kind : `${t.kind}:${t.arg}`)}"]`)) {
        this.tool = { kind: 'select' };
        this.draft = null;
        this.chain = null;
        this.cal = null;
        this.renderCal();
        this.say('');
      }
    }
    for (const b of this.bar.querySelectorAll('[data-tool]')) {
      const [kind, arg] = b.getAttribute('data-tool').split(':');
      b.setAttribute('aria-pressed', String(kind === this.tool.kind && (arg === undefined || arg === String(this.tool.arg))));
    }
    const del = this.bar.querySelector('[data-action="delete-feature"]');
    if (del) /** @type {HTMLButtonElement} */ (del).disabled = !/^field\.features\[\d+\]$/.test(this.selected);
    const cal = /** @type {HTMLButtonElement|null} */ (this.bar.querySelector('[data-tool="calibrate"]'));
    if (cal) cal.disabled = !this.imageDoc();
  }

  buildTools(sp) {
    const btn = (text, attrs, on) => h('button.btn.small', { type: 'button', ...attrs, on: { click: on } }, text);
    const tool = (text, kind, arg, title, swatch) => btn(swatch ? [swatch, text] : text, { 'data-tool': arg === undefined ? kind : `${kind}:${arg}`, 'aria-pressed': 'false', title },
      () => this.setTool({ kind, arg }));
    const group = (name, label, ...kids) => h('div.fe-group', { role: 'group', 'aria-label': label, dataset: { group: name } }, h('span.fe-label', { text: label }), ...kids);
    const sw = (colour) => (colour ? s('svg.fe-swatch', { viewBox: '0 0 1 1', width: 12, height: 12, 'aria-hidden': 'true' }, s('rect', { width: 1, height: 1, fill: colour })) : null);
    const groups = [group('view', 'View',
      tool('Select', 'select', undefined, 'Select and drag pieces and features; drag the field to pan'),
      btn('+', { title: 'Zoom in', 'data-action': 'zoom-in' }, () => this.zoom(1.4)),
      btn('−', { title: 'Zoom out', 'data-action': 'zoom-out' }, () => this.zoom(1 / 1.4)),
      btn('Fit', { title: 'Show the whole field', 'data-action': 'fit' }, () => this.fit()))];
    if (sp === 'table') {
      const types = (this.info.features || []).map((f) => (typeof f === 'string' ? { type: f } : { type: String(f.type || f.name || ''), line: f.line, shape: f.shape }));
      const isLine = (f) => (f.shape ? f.shape === 'line' : f.line !== undefined ? !!f.line : LINE_TYPES.includes(f.type));
      groups.push(group('areas', 'Areas', ...types.filter((f) => !isLine(f)).map((f) => tool(words(f.type), 'area', f.type, `Draw an area of ${words(f.type)}: click its corners, double-click or Enter to close`, sw(FEATURE[f.type] || '')))));
      groups.push(group('lines', 'Lines', ...types.filter(isLine).map((f) => tool(words(f.type), 'line', f.type, `Draw a ${words(f.type)}: click its points, Enter to finish`, sw(FEATURE[f.type] || '')))));
      groups.push(group('feature', 'Feature', btn('Delete feature', { 'data-action': 'delete-feature', title: 'Delete the selected feature (Delete key)' }, () => this.deleteFeature())));
    } else if (sp === 'hex') {
      groups.push(group('terrain', 'Terrain', ...this.hexKinds().map((k) => tool(words(k.name), 'terrain', k.letter, `Paint ${words(k.name)} (${k.letter}); drag to paint several hexes`, sw(TERRAIN[k.name] || '')))));
      groups.push(group('elevation', 'Elevation', ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => tool(String(n), 'elevation', String(n), `Paint level ${n}`))));
      groups.push(group('hexsides', 'Hexsides', ...this.lineKinds('hexsides').map((k) => tool(words(k), 'hexside', k, `Click near a hexside to add a ${words(k)} there, or take it away`))));
      groups.push(group('roads', 'Roads', ...this.lineKinds('roads').map((k) => tool(words(k), 'road', k, `Click hexes in order to lay a ${words(k)}; each must neighbour the last`))));
    }
    if (sp) {
      // the page chooses and removes the image; the field lines it up
      this.calPanel = h('div.fe-cal', { dataset: { group: 'calibration' } });
      groups.push(group('backdrop', 'Backdrop',
        // the page owns the image: the button asks it to choose one (an
        // event 'fe-choose-image' that bubbles from the tool bar)
        btn('Image…', { 'data-action': 'choose-image', title: 'Choose a scanned map or a photo to put under the field' },
          () => this.bar.dispatchEvent(new CustomEvent('fe-choose-image', { bubbles: true }))),
        tool('Calibrate', 'calibrate', undefined, sp === 'hex' ? 'Click two hex centres on the image and name them' : 'Click two points on the image and give the distance between them'),
        this.calPanel));
    } else {
      this.calPanel = null;
    }
    fill(this.bar, ...groups, this.hint);
    if (!this.hint.textContent) this.say('');
    this.renderCal();
  }

  /** The calibration's inputs for the step it is at. */
  renderCal() {
    const el = this.calPanel;
    if (!el) return;
    const c = this.cal;
    if (!c) { fill(el); return; }
    const input = (name, value, label, attrs = {}) => {
      const i = /** @type {HTMLInputElement} */ (h('input.fe-calin', { name, value, 'aria-label': label, 'data-cal': name, ...attrs }));
      i.addEventListener('input', () => { c[name] = i.value; });
      i.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); next(); } });
      return h('label.fe-calfield', null, label, ' ', i);
    };
    const next = () => {
      if (c.step === 'l1') { c.step = 'p2'; this.say('Click the centre of a second hex, in another column and another row.'); this.renderCal(); } else if (c.step === 'l2' || c.step === 'dist') this.calApply();
    };
    const go = (text, action) => h('button.btn.small', { type: 'button', 'data-action': action, on: { click: action === 'cal-done' ? () => this.setTool({ kind: 'select' }) : next } }, text);
    if (c.step === 'l1') fill(el, input('label1', c.label1 || '', 'Label of this hex', { size: 6 }), go('Next', 'cal-next'));
    else if (c.step === 'l2') fill(el, input('label2', c.label2 || '', 'Label of this hex', { size: 6 }), go('Line up', 'cal-apply'));
    else if (c.step === 'dist') fill(el, input('inches', c.inches || '', 'Distance between them, inches', { type: 'number', min: '0', step: 'any', size: 6 }), go('Set scale', 'cal-apply'));
    else if (c.step === 'place') fill(el, go('Done', 'cal-done'));
    else fill(el);
    if (c.step === 'l1' || c.step === 'l2') this.say('Type the label printed on this hex of the image (column then row); the box holds the label of the map\'s hex there now.');
    if (c.step === 'dist') this.say('Type the distance between the two points in inches.');
    const first = /** @type {HTMLInputElement|null} */ (el.querySelector('input'));
    if (first) first.focus({ preventScroll: true });
  }
}

// ---- small helpers ------------------------------------------------------------------------------

/**
 * A piece's name on a table: nine tenths of an inch high when the table
 * is seen close, and never under ten pixels on the screen (showView sets
 * --k, the inches a pixel).
 * @param {SVGElement} el
 */
function tableName(el) {
  /** @type {SVGTextElement} */ (el).style.fontSize = 'max(0.9px, calc(var(--k, 0.1) * 10px))';
  return el;
}

/**
 * What a tool does, in a line under the tool bar.
 * @param {Tool} tool @param {string} space @param {{letter:string, name:string}[]} kinds
 */
function toolHint(tool, space, kinds) {
  const what = words(tool.arg || '');
  const k = kinds.find((x) => x.letter === tool.arg);
  const hints = {
    terrain: () => `Click or drag over hexes to paint ${k ? words(k.name) : what}.`,
    elevation: () => `Click or drag over hexes to set their level to ${tool.arg}.`,
    hexside: () => `Click near a hexside to put a ${what} along it; click it again to take it away.`,
    road: () => `Click hexes in order to lay a ${what}, each a neighbour of the last; a click on a road's end goes on from it, Backspace takes the last hex off.`,
    area: () => `Click the corners of the ${what}; double-click or Enter closes it.`,
    line: () => `Click the points of the ${what}; Enter or a double-click ends it.`,
    select: () => (space === 'table'
      ? 'Drag a piece from the tree onto the table, or select it in the tree and tap the table; drag pieces to move them; select a unit to turn it by its handle (or [ and ]); select a feature to move its points or delete it.'
      : space === 'hex' ? 'Drag a piece from the tree onto a hex, or select it in the tree and tap the hex; drag pieces to move them; drag the map to pan, the wheel zooms.' : ''),
  };
  return (hints[tool.kind] || (() => ''))();
}

function isPoint(p) { return Array.isArray(p) && p.length === 2 && Number.isFinite(Number(p[0])) && Number.isFinite(Number(p[1])); }

function norm(deg) { const d = ((deg % 360) + 360) % 360; return d === 0 ? 0 : d; }

function round2(n) { return Math.round(n * 100) / 100; }

function cap(t) { return t ? t[0].toUpperCase() + t.slice(1) : t; }

function words(name) { return String(name).replace(/-/g, ' '); }

/** A colour #rrggbb darkened by k (0..1). */
function shade(hex, k) {
  if (!k || !/^#[0-9a-f]{6}$/i.test(hex)) return hex;
  const n = parseInt(hex.slice(1), 16);
  const ch = (v) => Math.round(v * (1 - k)).toString(16).padStart(2, '0');
  return `#${ch((n >> 16) & 255)}${ch((n >> 8) & 255)}${ch(n & 255)}`;
}
