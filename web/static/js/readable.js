// What keeps a map readable, shared by the table and the hex map: the
// turn that puts the seat's own base edge at the bottom of the screen
// (presentation only: the board says which edge is the seat's), labels
// laid out by priority so that none hides another, and the scale bar.

import { h, fill } from './dom.js';

/**
 * The turn of the map for a seat whose base edge is edge, in degrees
 * clockwise on the screen: that edge goes to the bottom. The umpire (no
 * edge) sees north at the top.
 * @param {string|undefined} edge
 */
export function turnOf(edge) {
  return { north: 180, south: 0, east: 90, west: -90 }[edge || ''] || 0;
}

/** Cosine and sine of the quarter turns, exactly. */
const TRIG = { 0: [1, 0], 90: [0, 1], 180: [-1, 0], '-90': [0, -1] };

/**
 * A turn of the map about a centre: maps points of the map (inches, or
 * hex radii) to the SVG's own frame, which the view box shows upright.
 */
export class Turn {
  /** @param {number} deg @param {number} cx @param {number} cy */
  constructor(deg, cx, cy) {
    this.deg = deg;
    this.cx = cx;
    this.cy = cy;
    [this.cos, this.sin] = TRIG[deg] || [Math.cos(deg * Math.PI / 180), Math.sin(deg * Math.PI / 180)];
  }

  /** A point of the map in the SVG's frame. */
  at(x, y) {
    const dx = x - this.cx, dy = y - this.cy;
    return { x: this.cx + dx * this.cos - dy * this.sin, y: this.cy + dx * this.sin + dy * this.cos };
  }

  /** The SVG frame's box of a box of the map. */
  box(x0, y0, x1, y1) {
    const a = this.at(x0, y0), b = this.at(x1, y1);
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(b.x - a.x), h: Math.abs(b.y - a.y) };
  }

  /** The transform of the layers that hold the map, or null unturned. */
  get transform() { return this.deg ? `rotate(${this.deg} ${this.cx} ${this.cy})` : null; }

  /**
   * The transform that sets upright what stands at (x, y) of the map,
   * inside the turned layers: text, counters. Null unturned.
   */
  upright(x, y) { return this.deg ? `rotate(${-this.deg} ${x} ${y})` : null; }
}

/** The zoom levels from the farthest. */
const ZOOMS = ['far', 'mid', 'near', 'close'];

/** Where a label may stand about what it names, in order of preference. */
const SLOTS = {
  r: [1, 0], l: [-1, 0], b: [0, 1], t: [0, -1], br: [1, 1], tr: [1, -1], bl: [-1, 1], tl: [-1, -1],
};

/**
 * @typedef {{
 *   el: SVGTextElement,
 *   at: {x:number, y:number},
 *   base?: {x:number, y:number},
 *   r?: number|{x:number, y:number},
 *   slots?: string[],
 *   prio: number,
 *   keep?: boolean,
 *   inside?: {x:number, y:number, w:number, h:number}|null,
 *   zoom?: string,
 *   text?: (zoom:string) => string,
 *   avoid?: boolean,
 * }} Label
 *
 * A label names something drawn at `at` (the SVG's frame), `r` from its
 * middle. Its element lies in a frame upright on the screen whose origin
 * is `base` in the SVG's frame (the labels layer: 0, 0; a piece's group:
 * the piece). It is placed in the first of its `slots` (r, l, b, t and
 * the corners; "c" centred on `at`) where it overlaps no label placed
 * before it: lower `prio` first. A label that finds no room is hidden,
 * unless `keep` (a general's name), which then looks farther out. A label
 * with `inside` is shifted into that box (a general's name, never cut at
 * the table's edge). `zoom` is the closest zoom at which it is shown at
 * all; `text` words it for the zoom. Each label first looks for room clear
 * of the pieces as well; one that must `avoid` them (a hex number, a grid
 * square) is hidden rather than laid over one.
 */

/**
 * Labels laid out so that none overlaps another, by priority: generals'
 * names first, then the seat's own pieces, then the others.
 */
export class Labels {
  constructor() {
    /** @type {Label[]} */ this.fixed = [];
    /** @type {Label[]} */ this.items = [];
    /** @type {{x:number,y:number,w:number,h:number}[]} */ this.obstacles = [];
  }

  /** The labels drawn with the map itself (hex numbers, squares, scale). @param {Label[]} ls */
  setFixed(ls) { this.fixed = ls; }

  /** The labels of the pieces, drawn anew with each board. @param {Label[]} ls */
  set(ls) { this.items = ls; }

  /** What the labels of low priority keep off: the pieces' boxes in the SVG's frame. */
  setObstacles(boxes) { this.obstacles = boxes; }

  /**
   * Places the labels for the zoom: k is SVG units a screen pixel.
   * @param {string} zoom @param {number} k
   */
  layout(zoom, k) {
    const all = [...this.items, ...this.fixed].filter((l) => l.el.isConnected);
    const z = ZOOMS.indexOf(zoom);
    const shown = [];
    for (const l of all) {
      const on = ZOOMS.indexOf(l.zoom || 'far') <= z;
      l.el.classList.toggle('lbl-off', !on);
      if (!on) continue;
      if (l.text) l.el.textContent = l.text(zoom);
      l.el.setAttribute('x', '0');
      l.el.setAttribute('y', '0');
      shown.push(l);
    }
    // Measure them all at once (one layout of the page), then place.
    const boxes = shown.map((l) => l.el.getBBox());
    const order = shown.map((l, i) => i).sort((a, b) => shown[a].prio - shown[b].prio || a - b);
    const gap = 3 * k, pad = 1.5 * k;
    /** @type {{x:number,y:number,w:number,h:number}[]} */
    const placed = [];
    const free = (b, avoid) => !placed.some((p) => hits(b, p, pad)) && !(avoid && this.obstacles.some((p) => hits(b, p, 0)));
    for (const i of order) {
      const l = shown[i];
      const bb = boxes[i];
      const w = bb.width, hh = bb.height;
      const rx = typeof l.r === 'object' ? l.r.x : l.r || 0;
      const ry = typeof l.r === 'object' ? l.r.y : l.r || 0;
      const slots = l.slots || ['r', 'l', 'b', 't'];
      const at = (slot, d) => {
        if (slot === 'c') return { x: l.at.x - w / 2, y: l.at.y - hh / 2, w, h: hh };
        const [sx, sy] = SLOTS[slot];
        const x = sx > 0 ? l.at.x + rx + d : sx < 0 ? l.at.x - rx - d - w : l.at.x - w / 2;
        const y = sy > 0 ? l.at.y + ry + d : sy < 0 ? l.at.y - ry - d - hh : l.at.y - hh / 2;
        return { x, y, w, h: hh };
      };
      let box = null;
      const near = slots.map((slot) => at(slot, gap));
      const far = [];
      if (l.keep) {
        for (let ring = 1; ring <= 12; ring++) {
          for (const slot of ['r', 'l', 'b', 't', 'br', 'tr', 'bl', 'tl']) far.push(at(slot, gap + ring * (hh + gap)));
        }
      }
      // Its own slots clear of the pieces too, then its own slots; a label
      // that is kept then looks farther out, the same way.
      const passes = l.avoid ? [[near, true], [far, true]] : [[near, true], [near, false], [far, true], [far, false]];
      for (const [tries, avoid] of passes) {
        for (const t of tries) {
          const b = l.inside ? within(t, l.inside) : t;
          if (free(b, avoid)) { box = b; break; }
        }
        if (box) break;
      }
      if (!box) {
        l.el.classList.add('lbl-off');
        continue;
      }
      placed.push(box);
      const base = l.base || { x: 0, y: 0 };
      l.el.setAttribute('x', String(round(box.x - base.x - bb.x)));
      l.el.setAttribute('y', String(round(box.y - base.y - bb.y)));
    }
  }
}

function round(v) { return Math.round(v * 1000) / 1000; }

/** Whether boxes a and b overlap, with pad between them. */
function hits(a, b, pad) {
  return a.x < b.x + b.w + pad && b.x < a.x + a.w + pad && a.y < b.y + b.h + pad && b.y < a.y + a.h + pad;
}

/** Box b shifted into box o, where it fits. */
function within(b, o) {
  const x = Math.max(o.x, Math.min(b.x, o.x + o.w - b.w));
  const y = Math.max(o.y, Math.min(b.y, o.y + o.h - b.h));
  return { x: b.w <= o.w ? x : b.x, y: b.h <= o.h ? y : b.y, w: b.w, h: b.h };
}

/**
 * The scale bar under the map: a length of the map that takes about 60 to
 * 150 pixels, in two halves, with its words.
 * @param {HTMLElement} el
 * @param {number} px screen pixels a unit of the map
 * @param {{unit:string, per:number, steps:number[]}} s the unit's name
 *   ("inches", "hexes"), map units one of it takes, and the lengths the
 *   bar may show
 */
export function scaleBar(el, px, s) {
  if (!(px > 0)) { el.hidden = true; return; }
  const one = px * s.per;
  const n = s.steps.find((v) => v * one >= 60) || s.steps[s.steps.length - 1];
  const half = n / 2;
  const halves = Number.isInteger(half) && half > 0;
  const word = (v) => s.unit === 'inches' ? `${v}″` : `${v} ${v === 1 ? 'hex' : 'hexes'}`;
  el.hidden = false;
  el.dataset.length = String(n);
  const bar = h('span.sb-bar', null, ...(halves ? [h('span.sb-seg'), h('span.sb-seg.alt')] : [h('span.sb-seg')]));
  bar.style.width = `${Math.round(n * one)}px`;
  fill(el, h('span.sb-ticks', null, h('span', { text: '0' }), halves ? h('span', { text: word(half).replace(/ hex(es)?$/, '') }) : null, h('span', { text: word(n) })), bar);
  el.title = s.unit === 'inches' ? `Scale: the bar is ${n} inches of the table` : `Scale: the bar is ${n} hexes across the map`;
}

/**
 * A map's view has moved: its labels are laid out again if the zoom has
 * changed (they keep their size on the screen), and the scale bar and the
 * compass follow.
 * @param {{svg:SVGSVGElement, laidAt:number, layoutSoon:number, turn:{deg:number}, labels:any, model:any}} v the map
 * @param {{unit:string, per:number, steps:number[]}} scale as scaleBar takes it
 * @param {(deg:number) => void} compass turns the compass's needle
 */
export function viewMoved(v, scale, compass) {
  const m = v.svg.getScreenCTM();
  const px = m ? m.a : 0;
  if (px > 0 && Math.abs(px - v.laidAt) > 1e-9) {
    cancelAnimationFrame(v.layoutSoon);
    v.layoutSoon = requestAnimationFrame(() => layLabels(v));
  }
  const sb = document.getElementById('scale');
  if (sb) scaleBar(sb, px, scale);
  compass(v.turn.deg);
}

/**
 * Lays a map's labels out for the zoom shown.
 * @param {{svg:SVGSVGElement, laidAt:number, labels:any, model:any}} v the map
 */
export function layLabels(v) {
  const m = v.svg.getScreenCTM();
  if (!m || !(m.a > 0) || !v.model) return;
  v.laidAt = m.a;
  v.labels.layout(v.svg.dataset.zoom || 'far', 1 / m.a);
  v.svg.dataset.laid = String(m.a); // for tests: the labels fit this zoom
}

/**
 * The view a map opens on: it fills the map's pane (the map covers it
 * where its shape lets it) as close as it may while every piece in pts
 * stays in sight, and never farther out than the whole map; then at
 * least minK pixels a map unit (what keeps a hex counter big enough to
 * read and tap), centred on focus when that crops the pieces. Null when
 * the pane has no size yet.
 * @param {{x:number,y:number,w:number,h:number}} b the map's box in the SVG's frame
 * @param {{width:number,height:number}} r the pane, pixels
 * @param {{left:number,top:number,right:number,bottom:number}} pad pixels kept free of the map (its tools)
 * @param {{x:number,y:number}[]} pts the pieces shown, in the SVG's frame
 * @param {{x:number,y:number}[]} focus the seat's own pieces (all for the umpire)
 * @param {number} margin map units kept round the pieces
 * @param {number} minK pixels a map unit at the least
 * @returns {{x:number,y:number,w:number,h:number}|null}
 */
export function fillView(b, r, pad, pts, focus, margin, minK) {
  const aw = r.width - pad.left - pad.right, ah = r.height - pad.top - pad.bottom;
  if (!(aw > 2 * (pad.left + pad.right)) || !(ah > 2 * (pad.top + pad.bottom)) || !(b.w > 0) || !(b.h > 0)) return null;
  const contain = Math.min(aw / b.w, ah / b.h), cover = Math.max(aw / b.w, ah / b.h);
  const box = (ps) => {
    if (!ps.length) return null;
    const xs = ps.map((p) => p.x), ys = ps.map((p) => p.y);
    const x = Math.min(...xs) - margin, y = Math.min(...ys) - margin;
    return { x, y, w: Math.max(...xs) + margin - x, h: Math.max(...ys) + margin - y };
  };
  const all = box(pts);
  const pieces = all ? Math.min(aw / all.w, ah / all.h) : cover;
  let k = Math.max(contain, Math.min(cover, pieces));
  const cropped = k < minK;
  k = Math.max(k, minK);
  const on = (cropped && box(focus)) || all || b;
  const fw = aw / k, fh = ah / k;
  const axis = (lo, len, c, span) => (span >= len ? lo - (span - len) / 2 : Math.max(lo, Math.min(lo + len - span, c - span / 2)));
  const x0 = axis(b.x, b.w, on.x + on.w / 2, fw), y0 = axis(b.y, b.h, on.y + on.h / 2, fh);
  return { x: x0 - pad.left / k, y: y0 - pad.top / k, w: r.width / k, h: r.height / k };
}

/**
 * The view moved so that point p (the SVG's frame) is in sight at least
 * margin from its edges: v itself when it is already, else centred on p.
 * @param {{x:number,y:number,w:number,h:number}} v
 * @param {{x:number,y:number}} p @param {number} margin
 */
export function revealed(v, p, margin) {
  if (p.x >= v.x + margin && p.x <= v.x + v.w - margin && p.y >= v.y + margin && p.y <= v.y + v.h - margin) return v;
  return { x: p.x - v.w / 2, y: p.y - v.h / 2, w: v.w, h: v.h };
}

/**
 * A unit's name short enough to stand beside its piece: whole up to max
 * characters; past that, the words that fit whole, then the others by
 * their initial (numbers kept whole), cut with an ellipsis if still long.
 * "Batterie à cheval" is "Batterie à c.".
 * @param {string} name @param {number} [max]
 */
export function shortName(name, max = 12) {
  const words = String(name).trim().split(/\s+/);
  if (words.join(' ').length <= max) return words.join(' ');
  const out = [];
  for (const w of words) {
    const whole = [...out, w].join(' ').length <= max;
    out.push(whole || /\d/.test(w) ? w : `${w[0]}.`);
  }
  const s = out.join(' ');
  return s.length > max + 3 ? `${s.slice(0, max).trimEnd()}…` : s;
}
