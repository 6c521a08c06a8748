// Small DOM helpers shared by the pages: element builders for HTML and SVG,
// and number formatting that matches the server's.

const SVGNS = 'http://www.w3.org/2000/svg';

/**
 * Builds an HTML element.
 * @param {string} tag tag name, optionally with an id and classes:
 *   "li.entry.secret", "div#odds.box"
 * @param {Object<string, any>} [attrs] attributes; `text` sets textContent,
 *   `dataset` an object of data-* values, `on` an object of event handlers;
 *   false, null and undefined values are skipped, true sets an empty attribute
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const [head, ...classes] = tag.split('.');
  const [name, id] = head.split('#');
  const el = document.createElement(name);
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(' ');
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Builds an SVG element.
 * @param {string} tag tag name, optionally with classes
 * @param {Object<string, any>} [attrs]
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {SVGElement}
 */
export function s(tag, attrs, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElementNS(SVGNS, name);
  if (classes.length) el.setAttribute('class', classes.join(' '));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') for (const [dk, dv] of Object.entries(v)) { if (dv !== undefined && dv !== null) el.dataset[dk] = String(dv); }
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'class') el.setAttribute('class', v);
    else if (k === 'style') throw new Error('no style attributes: the page runs under a strict CSP');
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/**
 * Removes every child of el and appends the given children.
 * @param {Element} el
 * @param {...(Node|string|null|undefined|false)} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * Formats a number as Go's strconv.FormatFloat(f, 'f', -1, 64) does for
 * the engine's positions (hundredths of an inch at most).
 * @param {number} n
 * @returns {string}
 */
export function num(n) {
  if (!Number.isFinite(n)) return String(n);
  return String(Math.round(n * 1e6) / 1e6);
}

/**
 * Formats a position or a distance for people, rounded to a tenth as the
 * engine writes positions (geom.Tenth): 40 for 39.99, never -0.
 * @param {number} n
 * @returns {string}
 */
export function tenth(n) {
  if (!Number.isFinite(n)) return String(n);
  const r = Math.round(n * 10) / 10;
  return String(r === 0 ? 0 : r);
}

/**
 * Formats a point [x, y] as the engine writes it for people: "(30, 12)",
 * each coordinate rounded to a tenth; the point itself is not changed.
 * @param {number[]|null|undefined} p
 * @returns {string}
 */
export function pt(p) {
  if (!p) return '?';
  return `(${tenth(p[0])}, ${tenth(p[1])})`;
}

/**
 * Formats an angle in whole degrees: "45°".
 * @param {number|undefined} d
 */
export function deg(d) {
  const r = Math.round(d || 0);
  return `${r === 0 ? 0 : r}°`;
}

/**
 * Names the entry-grid square a point lies in ("C4"), or "" without a grid.
 * @param {{width:number, depth:number, columns?:number, rows?:number}} field
 * @param {number[]} p
 * @returns {string}
 */
export function squareOf(field, p) {
  if (!field.columns || !field.rows || !p) return '';
  const col = Math.min(field.columns - 1, Math.max(0, Math.floor(p[0] / (field.width / field.columns))));
  const row = Math.min(field.rows - 1, Math.max(0, Math.floor(p[1] / (field.depth / field.rows))));
  return String.fromCharCode(65 + col) + (row + 1);
}

/**
 * Returns a function that runs fn once, delay ms after its last call.
 * @param {Function} fn
 * @param {number} delay
 * @returns {Function & {now: Function}}
 */
export function debounce(fn, delay) {
  let timer = 0;
  const d = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), delay);
  };
  d.now = (...args) => { clearTimeout(timer); fn(...args); };
  return d;
}

/**
 * A number with its noun in the number it takes: "1 stand", "3 stands"
 * (never "(s)"); the server's game.Count says the same.
 * @param {number} n
 * @param {string} one
 * @param {string} many
 * @returns {string}
 */
export function count(n, one, many) {
  return `${n} ${Math.abs(n) === 1 ? one : many}`;
}

/**
 * A name with its kind before it ("division Foy"), or alone if one of its
 * words already says the kind ("Division Foy"); the server's game.Kinded.
 * @param {string} kind
 * @param {string} name
 * @returns {string}
 */
export function kinded(kind, name) {
  const says = String(name).toLowerCase().split(/\s+/).some((w) => w.replace(/[,.']/g, '') === kind.toLowerCase());
  return says ? name : `${kind} ${name}`;
}

/**
 * Capitalises the first letter.
 * @param {string} t
 * @returns {string}
 */
export function cap(t) {
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

/**
 * Copies text to the clipboard, with a fallback for pages served over
 * plain http on a LAN (no Clipboard API there); the button says whether
 * it worked for a moment.
 * @param {string} text
 * @param {HTMLElement} btn the button that asked, labelled "Copy"
 */
export async function copyText(text, btn) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const ta = /** @type {HTMLTextAreaElement} */ (h('textarea', { readonly: true }));
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
  }
  btn.textContent = ok ? 'Copied ✓' : 'Select and copy';
  setTimeout(() => { btn.textContent = 'Copy'; }, 2500);
}

// ---- an SVG map's view: pan and zoom -------------------------------------------

/**
 * The view zoomed by factor about a point (its centre by default), its
 * width kept within minW..maxW.
 * @param {{x:number,y:number,w:number,h:number}} v
 * @param {number} factor more than 1 zooms in
 * @param {{x:number,y:number}|undefined} about
 * @param {number} minW @param {number} maxW
 */
export function zoomed(v, factor, about, minW, maxW) {
  const c = about || { x: v.x + v.w / 2, y: v.y + v.h / 2 };
  const w = Math.min(maxW, Math.max(minW, v.w / factor));
  const k = w / v.w;
  return { x: c.x - (c.x - v.x) * k, y: c.y - (c.y - v.y) * k, w, h: v.h * k };
}

/**
 * Shows view v in svg, and marks how close it is: --k (map units per
 * pixel) for strokes that keep their width, and data-zoom close, near, mid
 * or far by the pixels a map unit takes against steps (close, near, mid).
 * @param {SVGSVGElement} svg
 * @param {{x:number,y:number,w:number,h:number}} v
 * @param {number[]} steps @param {number} fallback pixels a unit when the svg has no size
 */
export function showView(svg, v, steps, fallback) {
  svg.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  const r = svg.getBoundingClientRect();
  const px = r.width > 0 ? Math.min(r.width / v.w, r.height / v.h) : fallback;
  svg.style.setProperty('--k', String(1 / px));
  svg.dataset.zoom = px >= steps[0] ? 'close' : px >= steps[1] ? 'near' : px >= steps[2] ? 'mid' : 'far';
}

/**
 * The map point under a client point, or the client point of a map point
 * (inverse false).
 * @param {SVGSVGElement} svg @param {number} x @param {number} y
 * @param {boolean} [toClient]
 */
export function mapPoint(svg, x, y, toClient) {
  const m = svg.getScreenCTM();
  if (!m) return { x: 0, y: 0 };
  const p = new DOMPoint(x, y).matrixTransform(toClient ? m : m.inverse());
  return { x: p.x, y: p.y };
}
