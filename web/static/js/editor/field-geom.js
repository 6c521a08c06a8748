// The editor field's pure helpers: the geometry of a hex map as the
// scenario format lays it out (flat-topped columns for the q layouts,
// pointy rows for the r layouts, labels from first and digits), the text
// forms of a map's terrain (a grid of letters, lists of hexsides, chains of
// roads), paths into the scenario document, and the calibration of a
// backdrop image. Nothing here decides what is legal: the server's check
// does.

const R3 = Math.sqrt(3);

/**
 * The geometry of a hex map in the field's units: a hex's radius (centre
 * to corner) is 1, the first hex (first column, first row) is near the
 * origin, x east and y south.
 * @param {{columns:number, rows:number, layout?:string, first?:number, digits?:number}} map
 */
export function hexGrid(map) {
  const columns = Math.max(1, Math.floor(Number(map.columns) || 1));
  const rows = Math.max(1, Math.floor(Number(map.rows) || 1));
  const layout = ['odd-q', 'even-q', 'odd-r', 'even-r'].includes(map.layout) ? map.layout : 'odd-q';
  const first = Number.isInteger(map.first) ? map.first : 1;
  const digits = Number.isInteger(map.digits) && map.digits > 0 ? map.digits : 2;
  const flat = layout.endsWith('-q');
  /** Whether column c (counted from 0) is half a hex lower (q), or row r half a hex east (r). */
  const shifted = (i) => (layout.startsWith('odd') ? i & 1 : 1 - (i & 1));
  /** The centre of the hex at column c, row r, counted from 0. */
  const centre = (c, r) => (flat ? { x: 1.5 * c, y: R3 * (r + 0.5 * shifted(c)) } : { x: R3 * (c + 0.5 * shifted(r)), y: 1.5 * r });
  const pad = (n) => String(n + first).padStart(digits, '0');
  const label = (c, r) => pad(c) + pad(r);
  const inside = (c, r) => c >= 0 && r >= 0 && c < columns && r < rows;
  /** Column and row (from 0) of a label, or null if it is not one of the map's. */
  const parse = (text) => {
    const t = String(text || '');
    let cs, rs;
    if (t.includes('-')) [cs, rs] = t.split('-');
    else if (t.length === 2 * digits) { cs = t.slice(0, digits); rs = t.slice(digits); } else return null;
    if (!/^\d+$/.test(cs || '') || !/^\d+$/.test(rs || '')) return null;
    const c = Number(cs) - first, r = Number(rs) - first;
    return inside(c, r) ? [c, r] : null;
  };
  /** The hex [c, r] whose centre is nearest (x, y), if within a radius of it. */
  const at = (x, y) => {
    const c0 = flat ? Math.round(x / 1.5) : Math.round(y / 1.5);
    let best = null, bd = Infinity;
    for (let i = c0 - 1; i <= c0 + 1; i++) {
      // i is a column (q) or a row (r); j the other, near the point
      const j0 = flat ? Math.round(y / R3 - 0.5 * shifted(i)) : Math.round(x / R3 - 0.5 * shifted(i));
      for (let j = j0 - 1; j <= j0 + 1; j++) {
        const [c, r] = flat ? [i, j] : [j, i];
        if (!inside(c, r)) continue;
        const p = centre(c, r);
        const d = (p.x - x) ** 2 + (p.y - y) ** 2;
        if (d < bd) { bd = d; best = [c, r]; }
      }
    }
    return bd <= 1 + 1e-9 ? best : null;
  };
  /** Whether hexes a and b ([c, r]) are neighbours. */
  const adjacent = (a, b) => {
    const p = centre(a[0], a[1]), q = centre(b[0], b[1]);
    return Math.abs(Math.hypot(p.x - q.x, p.y - q.y) - R3) < 1e-6;
  };
  /**
   * The hexside nearest (x, y): the hex the point is in and the one across
   * the side the point is nearest, both on the map; null if there is none.
   */
  const sideAt = (x, y) => {
    const a = at(x, y);
    if (!a) return null;
    const p = centre(a[0], a[1]);
    // the directions of the six neighbours' centres
    const base = flat ? 30 : 0;
    let best = null, bd = -Infinity;
    for (let k = 0; k < 6; k++) {
      const ang = ((base + 60 * k) * Math.PI) / 180;
      const ux = Math.cos(ang), uy = Math.sin(ang);
      const d = (x - p.x) * ux + (y - p.y) * uy;
      if (d > bd) { bd = d; best = { x: p.x + R3 * ux, y: p.y + R3 * uy }; }
    }
    const b = best && at(best.x, best.y);
    return b ? [a, b] : null;
  };
  /** The six corners of the hex centred at p, k radii out, as SVG points. */
  const corners = (p, k = 1) => {
    const out = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i + (flat ? 0 : 30));
      out.push(`${round3(p.x + k * Math.cos(a))},${round3(p.y + k * Math.sin(a))}`);
    }
    return out.join(' ');
  };
  // the box round every hex: the outer hexes are those of the first two
  // and last two columns and rows
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const rim = (c, r) => {
    const p = centre(c, r);
    x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y);
  };
  for (const c of [0, 1, columns - 2, columns - 1]) if (c >= 0 && c < columns) for (const r of [0, 1, rows - 2, rows - 1]) if (r >= 0 && r < rows) rim(c, r);
  const hw = flat ? 1 : R3 / 2, hh = flat ? R3 / 2 : 1;
  const bounds = { x: x0 - hw, y: y0 - hh, w: x1 - x0 + 2 * hw, h: y1 - y0 + 2 * hh };
  return { columns, rows, layout, first, digits, flat, centre, label, parse, at, adjacent, sideAt, corners, bounds };
}

function round3(n) { return Math.round(n * 1000) / 1000; }

// ---- the terrain's text forms ------------------------------------------------

/**
 * A grid of one character a hex from its text (a line a row, spaces
 * ignored, blank lines before the first row skipped), fitted to columns by
 * rows: missing rows and columns take fill, extra ones are dropped.
 * @param {string|undefined} text @param {number} columns @param {number} rows @param {string} fill
 * @returns {string[][]}
 */
export function readGrid(text, columns, rows, fill) {
  const lines = String(text || '').replace(/\s+$/, '').split('\n').map((l) => l.replace(/[ \t\r]/g, ''));
  while (lines.length && lines[0] === '') lines.shift();
  const out = [];
  for (let r = 0; r < rows; r++) {
    const chars = [...(lines[r] || '')];
    const row = [];
    for (let c = 0; c < columns; c++) row.push(chars[c] || fill);
    out.push(row);
  }
  return out;
}

/** The text of a grid: a line a row, ending with a newline. @param {string[][]} grid */
export function writeGrid(grid) {
  return grid.map((row) => row.join('')).join('\n') + '\n';
}

/** The items of a list of labels or hexsides (spaces or commas between). */
export function items(text) {
  return String(text || '').split(/[\s,]+/).filter(Boolean);
}

/**
 * The hexsides text with the side between labels a and b added, or taken
 * out if it is there (either way round).
 * @param {string|undefined} text @param {string} a @param {string} b
 */
export function toggleSide(text, a, b) {
  const list = items(text);
  const i = list.findIndex((it) => it === `${a}/${b}` || it === `${b}/${a}`);
  if (i >= 0) list.splice(i, 1);
  else list.push(a < b ? `${a}/${b}` : `${b}/${a}`);
  return list.join(' ');
}

// ---- paths into the document --------------------------------------------------

/**
 * The steps of a path such as sides[0].corps[1].general: keys and
 * indexes, or null if it is not a path.
 * @param {string} path
 * @returns {(string|number)[]|null}
 */
export function steps(path) {
  const out = [];
  const re = /([A-Za-z_][\w-]*)|\[(\d+)\]|(\.)/gy;
  let m, last = 0;
  const text = String(path || '');
  if (!text) return null;
  while (last < text.length && (m = re.exec(text))) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    last = re.lastIndex;
  }
  return last === text.length && out.length ? out : null;
}

/** The value at path in doc, or undefined. @param {any} doc @param {string} path */
export function getPath(doc, path) {
  const st = steps(path);
  if (!st) return undefined;
  let v = doc;
  for (const k of st) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[k];
  }
  return v;
}

/**
 * Every general and unit of the document's sides, in order: its path, its
 * object, the side's index, and whether it is a unit.
 * @param {any} doc
 * @returns {{path:string, piece:any, side:number, unit:boolean}[]}
 */
export function pieces(doc) {
  const out = [];
  const walk = (v, path, side) => {
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, `${path}[${i}]`, side)); return; }
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (!x || typeof x !== 'object') continue;
      const p = `${path}.${k}`;
      if ((k === 'army' || k === 'general') && !Array.isArray(x)) out.push({ path: p, piece: x, side, unit: false });
      else if (k === 'units' && Array.isArray(x)) x.forEach((u, i) => { if (u && typeof u === 'object') out.push({ path: `${p}[${i}]`, piece: u, side, unit: true }); });
      else if (['wings', 'corps', 'divisions', 'brigades'].includes(k)) walk(x, p, side);
    }
  };
  const sides = doc && Array.isArray(doc.sides) ? doc.sides : [];
  sides.forEach((sd, i) => walk(sd, `sides[${i}]`, i));
  return out;
}

/**
 * The marks a designer places besides the pieces: each side's army
 * headquarters (sides[i].hq) and each formation's order objective
 * (order.objective, and order.then.objective of an off-board reserve's
 * later order), where the document sets them. Each with its path, the
 * object and key that hold its position, the side's index, the path of
 * what it belongs to (the side or the formation), its label, and for an
 * objective the formation's general's at (undefined when he has none).
 * @param {any} doc
 * @returns {{path:string, kind:'hq'|'objective', holder:any, key:string, at:any, side:number, owner:string, label:string, from?:any}[]}
 */
export function marks(doc) {
  const out = [];
  const set = (v) => v !== undefined && v !== null && v !== '';
  const walk = (f, path, side) => {
    if (!f || typeof f !== 'object') return;
    const o = f.order;
    const from = f.general && typeof f.general === 'object' ? f.general.at : undefined;
    const label = String(f.id || '?').slice(0, 6);
    if (o && typeof o === 'object' && !Array.isArray(o)) {
      if (set(o.objective)) out.push({ path: `${path}.order.objective`, kind: 'objective', holder: o, key: 'objective', at: o.objective, side, owner: path, label, from });
      const t = o.then;
      if (t && typeof t === 'object' && !Array.isArray(t) && set(t.objective)) {
        out.push({ path: `${path}.order.then.objective`, kind: 'objective', holder: t, key: 'objective', at: t.objective, side, owner: path, label, from });
      }
    }
    for (const k of ['wings', 'corps', 'divisions', 'brigades']) {
      if (Array.isArray(f[k])) f[k].forEach((x, i) => walk(x, `${path}.${k}[${i}]`, side));
    }
  };
  const sides = doc && Array.isArray(doc.sides) ? doc.sides : [];
  sides.forEach((sd, i) => {
    if (!sd || typeof sd !== 'object') return;
    if (set(sd.hq)) out.push({ path: `sides[${i}].hq`, kind: 'hq', holder: sd, key: 'hq', at: sd.hq, side: i, owner: `sides[${i}]`, label: 'HQ' });
    for (const k of ['wings', 'corps', 'divisions', 'brigades']) {
      if (Array.isArray(sd[k])) sd[k].forEach((x, j) => walk(x, `sides[${i}].${k}[${j}]`, i));
    }
  });
  return out;
}

// ---- backdrop calibration ---------------------------------------------------------

/**
 * Where a hex map's image lies in the field's units: its top-left corner
 * and the field units per image pixel on each axis, from the image's grid
 * (x0, y0: the first hex's centre in pixels; dx, dy: between centres).
 * @param {ReturnType<typeof hexGrid>} g @param {{x0:number, y0:number, dx:number, dy:number}} im
 */
export function hexImagePlace(g, im) {
  const f = g.centre(0, 0);
  const kx = (g.flat ? 1.5 : R3) / im.dx, ky = (g.flat ? R3 : 1.5) / im.dy;
  return { x: f.x - im.x0 * kx, y: f.y - im.y0 * ky, kx, ky };
}

/**
 * The grid of a hex map's image from two hexes' centres clicked on it:
 * their points in image pixels and their labels; an error sentence when
 * the labels are not the map's or share a column or a row.
 * @param {ReturnType<typeof hexGrid>} g
 * @param {{x:number,y:number}} p1 @param {string} l1 @param {{x:number,y:number}} p2 @param {string} l2
 * @returns {{x0:number, y0:number, dx:number, dy:number}|{error:string}}
 */
export function hexCalibration(g, p1, l1, p2, l2) {
  const a = g.parse(l1), b = g.parse(l2);
  if (!a) return { error: `${l1 || 'the first label'} is not a hex of this map (column then row, ${g.digits} digits each)` };
  if (!b) return { error: `${l2 || 'the second label'} is not a hex of this map (column then row, ${g.digits} digits each)` };
  if (a[0] === b[0] || a[1] === b[1]) return { error: 'the two hexes must be in different columns and different rows' };
  const f = g.centre(0, 0), ha = g.centre(a[0], a[1]), hb = g.centre(b[0], b[1]);
  const ux = g.flat ? 1.5 : R3, uy = g.flat ? R3 : 1.5;
  const dx = (p2.x - p1.x) * ux / (hb.x - ha.x);
  const dy = (p2.y - p1.y) * uy / (hb.y - ha.y);
  if (!(dx > 0) || !(dy > 0)) return { error: 'the hexes clicked lie the other way round from their labels; click each hex named at its centre' };
  return { x0: p1.x - ((ha.x - f.x) / ux) * dx, y0: p1.y - ((ha.y - f.y) / uy) * dy, dx, dy };
}

/**
 * A table image's scale from two points clicked on it (in image pixels)
 * and the distance between them in inches: pixels per inch.
 * @param {{x:number,y:number}} p1 @param {{x:number,y:number}} p2 @param {number} inches
 */
export function tableScale(p1, p2, inches) {
  const px = Math.hypot(p2.x - p1.x, p2.y - p1.y);
  if (!(inches > 0)) return { error: 'give the distance between the two points in inches, more than 0' };
  if (!(px > 0)) return { error: 'click two different points of the image' };
  return { scale: px / inches };
}

/** n rounded to step (0.5 for a table's positions). */
export function snap(n, step) {
  const r = Math.round(n / step) * step;
  return Math.round(r * 1e6) / 1e6 || 0;
}
