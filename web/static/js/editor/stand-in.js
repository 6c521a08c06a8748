// A stand-in for the editor's field (field.js, contract §6) until the
// field part's branch is merged: the same interface, drawing only the
// table and where the pieces stand, and taking pieces dropped from the
// tree on a table. It is deleted once field.js is in.

import { s } from '../dom.js';

const DRAG_TYPE = 'application/x-orderly-path';

export class FieldEditor {
  /**
   * @param {SVGSVGElement} svg
   * @param {{changed: (doc: any, path?: string) => void, select: (path: string) => void}} hooks
   */
  constructor(svg, hooks) {
    this.svg = svg;
    this.hooks = hooks;
    /** @type {any} */
    this.doc = null;
    svg.addEventListener('dragover', (ev) => {
      if (this.doc && this.doc.field && ev.dataTransfer && ev.dataTransfer.types.includes(DRAG_TYPE)) ev.preventDefault();
    });
    svg.addEventListener('drop', (ev) => {
      const path = ev.dataTransfer ? ev.dataTransfer.getData(DRAG_TYPE) : '';
      if (!path || !this.doc || !this.doc.field) return;
      ev.preventDefault();
      const m = svg.getScreenCTM();
      if (!m) return;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      const piece = at(this.doc, path);
      if (!piece) return;
      piece.at = [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10];
      this.hooks.changed(this.doc, path);
    });
  }

  /**
   * Draws doc: the table and a dot for each piece placed on it.
   * @param {any} doc @param {any} info @param {string} selected
   */
  show(doc, info, selected) { // eslint-disable-line no-unused-vars
    this.doc = doc;
    const f = doc && doc.field;
    const w = f ? Number(f.width) || 1 : Number(doc && doc.map && doc.map.columns) || 1;
    const d = f ? Number(f.depth) || 1 : Number(doc && doc.map && doc.map.rows) || 1;
    this.svg.setAttribute('viewBox', `0 0 ${w} ${d}`);
    const nodes = [s('rect.ed-table', { x: 0, y: 0, width: w, height: d })];
    if (f) {
      for (const [path, piece] of pieces(doc)) {
        if (!Array.isArray(piece.at)) continue;
        nodes.push(s(`circle.ed-piece${path === selected ? '.selected' : ''}`, {
          cx: piece.at[0], cy: piece.at[1], r: Math.max(w, d) / 120, dataset: { path },
          on: { click: () => this.hooks.select(path) },
        }));
      }
    }
    this.svg.replaceChildren(...nodes);
  }

  /** The field's tool bar: none in the stand-in. */
  tools() { return document.createElement('div'); }
}

/**
 * The pieces of doc (generals and units) with their paths.
 * @param {any} doc
 * @returns {[string, any][]}
 */
function pieces(doc) {
  /** @type {[string, any][]} */
  const out = [];
  const walk = (/** @type {any} */ v, /** @type {string} */ path) => {
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, `${path}[${i}]`)); return; }
    if (!v || typeof v !== 'object') return;
    if ('at' in v && 'id' in v) out.push([path, v]);
    for (const [k, x] of Object.entries(v)) if (k !== 'at' && typeof x === 'object') walk(x, path ? `${path}.${k}` : k);
  };
  walk(doc.sides, 'sides');
  return out;
}

/**
 * The value at a path of doc.
 * @param {any} doc @param {string} path
 */
function at(doc, path) {
  let v = doc;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (v == null) return undefined;
    v = m[2] !== undefined ? v[Number(m[2])] : v[m[1]];
  }
  return v;
}
