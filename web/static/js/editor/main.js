// The scenario editor (issue 35): the page holds one scenario document
// (the scenario file as JSON, the keys and nesting of its YAML), shows its
// order of battle as a tree and the selected node's form, both generated
// from the rule set's schema, and the field (field.js) beside them. After
// each change the server checks the document with the loader's own checks
// (POST /api/editor/check): its problems are listed in the loader's words,
// each a link to its node, and "Start a game" is enabled only when the
// scenario loads. The page computes no rule.
//
// /edit#rules=ID starts a new scenario of a rule set, /edit#scenario=ID
// opens a bundled one; the document survives a reload (sessionStorage).
// The editor's routes need the host token, read as the front page reads it.

import { h, fill } from '../dom.js';
import { Api, ApiError, sentence } from '../api.js';
import { showCreated } from '../created.js';
import { Schema, segments, joinPath, valueAt, ids, uniqueId, renameIds } from './schema.js';
import { formFields } from './form.js';
import { FieldEditor } from './field.js';

const HOST_KEY = 'orderly.host';
const DOC_KEY = 'orderly.editor';
const CLIP_KEY = 'orderly.editor.clip';
const DRAG_TYPE = 'application/x-orderly-path';
/** The largest backdrop image (battle.MaxImage). */
const MAX_IMAGE = 4 << 20;
/** The largest .vmod sent (its base64 must fit the server's upload limit). */
const MAX_VMOD = 6 << 20;
/** The largest roster read. */
const MAX_ROSTER = 1 << 20;
/** The size of a document (as JSON) kept after a pause in typing rather than at each key. */
const BIG_DOC = 256 << 10;
/** The most units one bulk add makes. */
const MAX_BULK = 50;

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

/**
 * The editor's state.
 * @type {{
 *   api: Api, rules: string, doc: any, schema: Schema|null, info: any,
 *   selected: string, version: number, check: any, checked: number,
 *   inflight: boolean, timer: number, nodes: Map<string, {r: any, top: boolean}>,
 *   field: any, boards: string[], vmod: {data: string, file: string}|null, unkept: boolean, big: boolean,
 * }}
 */
const ed = {
  api: new Api(hostToken()),
  rules: '',
  doc: null,
  schema: null,
  info: null,
  selected: '',
  version: 0,
  check: null,
  checked: -1,
  inflight: false,
  timer: 0,
  nodes: new Map(),
  field: null,
  boards: [],
  vmod: null,
  unkept: false,
  big: false,
};

/** The host token the front page keeps for this tab. */
function hostToken() {
  try { return sessionStorage.getItem(HOST_KEY) || ''; } catch { return ''; }
}

/**
 * Shows one sentence in the banner.
 * @param {string} msg
 */
function banner(msg) {
  const b = $('banner');
  b.querySelector('.banner-text').textContent = msg;
  b.hidden = false;
}

/**
 * Reads a chosen file as text or as a data URL.
 * @param {File} file
 * @param {'text'|'url'} as
 * @returns {Promise<string>}
 */
function readFile(file, as) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new ApiError(0, 'file', `The file ${file.name} could not be read.`));
    if (as === 'url') r.readAsDataURL(file);
    else r.readAsText(file);
  });
}

// ---- loading a document ----

/**
 * Loads the rule set's schema and what the editor needs of it, then
 * shows doc.
 * @param {string} rules
 * @param {any} doc the document, or null for the rule set's blank one
 */
async function open(rules, doc) {
  const [schema, info] = await Promise.all([
    ed.api.get(`/api/schema/scenario/${encodeURIComponent(rules)}`),
    ed.api.get(`/api/editor/${encodeURIComponent(rules)}`),
  ]);
  ed.rules = rules;
  ed.schema = new Schema(schema);
  ed.info = info;
  $('example-tables-row').hidden = !info['example-tables'];
  ed.doc = doc || structuredClone(info.blank);
  ed.selected = '';
  ed.check = null;
  $('choose').hidden = true;
  $('editor').hidden = false;
  $('ed-rules').textContent = rules.toUpperCase();
  changed();
}

/**
 * Opens a scenario's text (YAML or JSON): the server reads it into the
 * document, whatever its problems.
 * @param {string} source
 * @param {string} file
 */
async function openSource(source, file) {
  const res = await ed.api.post('/api/editor/check', { source, file });
  if (!res.doc || typeof res.doc !== 'object') {
    const p = (res.problems || [])[0];
    throw new ApiError(422, 'invalid', p ? `${file}: ${p.message}` : `${file} is not a scenario.`);
  }
  const rules = typeof res.doc.rules === 'string' && res.doc.rules ? res.doc.rules : res.rules;
  if (!rules) throw new ApiError(422, 'invalid', `${file} names no rule set (rules:); the editor needs one.`);
  await open(rules, res.doc);
}

/** Shows the list of rule sets to start a new scenario with. */
async function choose() {
  $('editor').hidden = true;
  $('choose').hidden = false;
  $('choose-back').hidden = !ed.doc;
  const list = await ed.api.get('/api/scenarios');
  const rules = [...new Set(list.map((/** @type {any} */ sc) => sc.rules))].sort();
  fill($('choose-rules'), ...rules.map((r) => h('button.btn', {
    type: 'button', dataset: { rules: r }, text: r.toUpperCase(),
    on: { click: () => run(() => open(r, null)) },
  })));
}

/**
 * Runs an action, showing its error in the banner.
 * @param {() => Promise<any>} action
 */
async function run(action) {
  try {
    await action();
  } catch (err) {
    banner(sentence(err));
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) $('host-needed').hidden = false;
  }
}

// ---- changes ----

/**
 * After a change of the document: keeps it for a reload, redraws the tree,
 * the form when asked, the field, and asks for a check.
 * @param {{form?: boolean}} [opts] form: false keeps the form (a field of
 *   it is being typed in)
 */
function changed(opts = {}) {
  ed.version++;
  // A large document (an image) is kept with the check, not at each key typed.
  if (!ed.big) keep();
  if (!valueAtNode(ed.selected)) ed.selected = '';
  renderTree();
  if (opts.form !== false) renderForm();
  showField();
  $('ed-name').textContent = (ed.doc && (ed.doc.title || ed.doc.name)) || '';
  const d = ed.doc || {};
  $('image-remove').hidden = !((d.map && d.map.image) || (d.field && d.field.image));
  applyCheck();
  clearTimeout(ed.timer);
  ed.timer = window.setTimeout(() => { if (ed.big) keep(); check(); }, 400);
}

/**
 * Keeps the document for a reload of the tab. One too big for the tab's
 * store (a large image) is not kept, nor is an older copy left to come
 * back: the page says so once.
 */
function keep() {
  try {
    const text = JSON.stringify({ rules: ed.rules, doc: ed.doc });
    ed.big = text.length > BIG_DOC;
    sessionStorage.setItem(DOC_KEY, text);
    ed.unkept = false;
  } catch {
    try { sessionStorage.removeItem(DOC_KEY); } catch { /* private mode */ }
    if (!ed.unkept) banner('The scenario is too big for this tab to keep across a reload (its image, most likely): save it to keep it.');
    ed.unkept = true;
  }
}

/**
 * The document's value at a node's path ('' is the document).
 * @param {string} path
 */
function valueAtNode(path) {
  return path ? valueAt(ed.doc, path) : ed.doc;
}

/** Draws the field. */
function showField() {
  if (!ed.field) return;
  try {
    ed.field.show(ed.doc, ed.info, ed.selected);
  } catch (err) {
    // The field draws what it can of a half-made document; the check says what is wrong.
    console.debug('field', err); // eslint-disable-line no-console
  }
}

// ---- checking ----

/**
 * Asks the server to check the document: one request at a time; a change
 * made meanwhile is checked when the answer comes (the newest wins).
 */
async function check() {
  if (ed.inflight || !ed.doc) return;
  if (ed.checked === ed.version) return;
  ed.inflight = true;
  const version = ed.version;
  $('check-status').textContent = 'checking…';
  try {
    const res = await ed.api.post('/api/editor/check', { source: JSON.stringify(ed.doc), file: `${fileName()}.json` });
    if (version === ed.version) {
      ed.check = res;
      ed.checked = version;
    }
  } catch (err) {
    ed.check = null;
    ed.checked = version;
    banner(sentence(err));
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) $('host-needed').hidden = false;
  } finally {
    ed.inflight = false;
  }
  applyCheck();
  markTree();
  if (ed.checked !== ed.version) check();
}

/** The scenario's file name, from its name. */
function fileName() {
  const n = ed.doc && typeof ed.doc.name === 'string' ? ed.doc.name : '';
  return n.replace(/[^A-Za-z0-9._+-]+/g, '-').replace(/^[-.]+/, '') || 'scenario';
}

/** Shows the last check: its problems, the status, Save and Start. */
function applyCheck() {
  const c = ed.check;
  const fresh = !!c && ed.checked === ed.version;
  const status = $('check-status');
  status.classList.toggle('ok', fresh && c.ok);
  status.classList.toggle('bad', !!c && !c.ok);
  status.textContent = !c ? 'not checked' : !fresh ? 'checking…' : c.ok ? 'loads: ready to play' : `${c.problems.length} problem${c.problems.length === 1 ? '' : 's'}`;
  $('start-open').disabled = !(fresh && c.ok);
  $('save').disabled = !(fresh && c.yaml);
  const list = c ? c.problems || [] : [];
  fill($('problems'), ...list.map((/** @type {any} */ p) => {
    const where = nodeOf(p.path || '');
    const a = h('a', { href: '#', dataset: { path: p.path || '', node: where.node }, text: p.message });
    a.addEventListener('click', (ev) => { ev.preventDefault(); goTo(p.path || ''); });
    // The loader's sentence names its place; a path it does not name is shown above it.
    const named = !p.path || String(p.message).includes(p.path);
    // Its line is of the JSON the page sent, which is no help to a person.
    return h('li.problem', null, named ? null : h('code', { text: p.path }), a);
  }));
}

/**
 * The node a problem's path concerns: the longest prefix of the path that
 * is a node of the tree, and the rest of it (the field of its form).
 * @param {string} path
 * @returns {{node: string, rest: string}}
 */
function nodeOf(path) {
  const segs = segments(path);
  for (let n = segs.length; n > 0; n--) {
    const p = joinPath(segs.slice(0, n));
    if (ed.nodes.has(p)) return { node: p, rest: joinPath(segs.slice(n).map(String)) };
  }
  return { node: '', rest: joinPath(segs.map(String)) };
}

/**
 * Selects the node of a problem and focuses its field.
 * @param {string} path
 */
function goTo(path) {
  const { node, rest } = nodeOf(path);
  select(node);
  const tree = document.querySelector(`#tree [data-path="${CSS.escape(node)}"]`);
  if (tree) tree.scrollIntoView({ block: 'nearest' });
  const form = $('form');
  let key = rest;
  for (;;) {
    const el = key ? form.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
    if (el) {
      const target = el.matches('input, select, textarea') ? el : el.querySelector('input, select, textarea') || el;
      for (let d = target.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) /** @type {HTMLDetailsElement} */ (d).open = true;
      target.scrollIntoView({ block: 'nearest' });
      target.focus();
      return;
    }
    const cut = key.lastIndexOf('.');
    if (cut < 0) break;
    key = key.slice(0, cut);
  }
  const first = form.querySelector('input, select, textarea');
  if (first) first.focus();
}

// ---- the tree ----

/**
 * Selects a node: its form, and the field marks it.
 * @param {string} path
 */
function select(path) {
  ed.selected = ed.nodes.has(path) ? path : '';
  for (const el of document.querySelectorAll('#tree .ed-node.selected')) el.classList.remove('selected');
  const li = document.querySelector(`#tree li[data-path="${CSS.escape(ed.selected)}"] > .ed-node`);
  if (li) li.classList.add('selected');
  renderForm();
  showField();
}

/** The problems of the last check, by node. */
function problemsByNode() {
  /** @type {Map<string, number>} */
  const m = new Map();
  if (!ed.check) return m;
  for (const p of ed.check.problems || []) {
    const n = nodeOf(p.path || '').node;
    m.set(n, (m.get(n) || 0) + 1);
  }
  return m;
}

/** Draws the tree of the document's nodes. */
function renderTree() {
  const schema = ed.schema;
  if (!schema || !ed.doc) return;
  ed.nodes = new Map();
  const root = schema.resolve(schema.root);
  // The nodes' paths are collected first: a problem is counted against the
  // longest of them that its path starts with.
  collect('', root, true);
  fill($('tree'), item('', root, true, 'Scenario'));
  markTree();
}

/** Marks the tree's nodes with the last check's problems, in place. */
function markTree() {
  const probs = problemsByNode();
  for (const btn of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#tree .ed-node'))) {
    const n = probs.get(btn.dataset.path || '') || 0;
    btn.classList.toggle('has-problem', n > 0);
    let badge = btn.querySelector('.badge');
    if (!n) { if (badge) badge.remove(); continue; }
    if (!badge) { badge = h('span.badge'); btn.append(badge); }
    badge.textContent = String(n);
    badge.setAttribute('title', `${n} problem${n === 1 ? '' : 's'}`);
  }
}

/**
 * Records the nodes under path.
 * @param {string} path @param {any} r @param {boolean} top
 */
function collect(path, r, top) {
  const schema = /** @type {Schema} */ (ed.schema);
  ed.nodes.set(path, { r, top });
  const v = valueAtNode(path);
  if (!v || typeof v !== 'object') return;
  for (const c of schema.children(r.s, top)) {
    const p = path ? `${path}.${c.key}` : c.key;
    if (c.list) (Array.isArray(v[c.key]) ? v[c.key] : []).forEach((_, i) => collect(`${p}[${i}]`, c.item, false));
    else if (v[c.key] && typeof v[c.key] === 'object') collect(p, c.item, false);
  }
}

/**
 * The tree's item of a node and its children.
 * @param {string} path @param {any} r @param {boolean} top @param {string} label
 * @returns {HTMLElement}
 */
function item(path, r, top, label) {
  const schema = /** @type {Schema} */ (ed.schema);
  const v0 = valueAtNode(path);
  // An item of an opened file may be anything; the check says what is wrong with it.
  const v = v0 && typeof v0 === 'object' ? v0 : {};
  const kids = [];
  for (const c of schema.children(r.s, top)) {
    const p = path ? `${path}.${c.key}` : c.key;
    if (c.list) {
      (Array.isArray(v[c.key]) ? v[c.key] : []).forEach((x, i) => kids.push(item(`${p}[${i}]`, c.item, false, nodeLabel(c.item.name || c.key, x, c.key))));
    } else if (v[c.key] && typeof v[c.key] === 'object') {
      kids.push(item(p, c.item, false, nodeLabel(c.item.name || c.key, v[c.key], c.key)));
    }
  }
  const piece = !!(r.s.properties && r.s.properties.at);
  const placed = piece && v && v.at !== undefined;
  const btn = h(`button.ed-node${path === ed.selected ? '.selected' : ''}${piece ? '.piece' : ''}${placed ? '.placed' : ''}`, {
    type: 'button', draggable: piece ? 'true' : undefined, dataset: { path, def: r.name || '' },
    // the whole label, which a narrow tree cuts short
    title: piece ? `${label}: drag it onto the field, or select it and tap the field, to place it` : label,
  }, h('span.ed-label', { text: label }));
  btn.addEventListener('click', () => select(path));
  if (piece) {
    btn.addEventListener('dragstart', (ev) => {
      if (!ev.dataTransfer) return;
      ev.dataTransfer.setData(DRAG_TYPE, path);
      ev.dataTransfer.setData('text/plain', path);
      ev.dataTransfer.effectAllowed = 'move';
    });
  }
  return h('li', { role: 'treeitem', dataset: { path } }, btn, kids.length ? h('ul', { role: 'group' }, ...kids) : null);
}

/**
 * A node's label: what it is, its id and its name.
 * @param {string} def the definition's name @param {any} v @param {string} key
 */
function nodeLabel(def, v, key) {
  const what = key === 'army' ? 'army commander' : key === 'general' ? 'general' : def;
  if (!v || typeof v !== 'object') return what;
  const id = typeof v.id === 'string' ? v.id : '';
  const name = typeof v.name === 'string' ? v.name : typeof v.type === 'string' && def === 'feature' ? v.type : '';
  return [what, id, name && name !== id ? `· ${name}` : ''].filter(Boolean).join(' ');
}

// ---- the form ----

/** Draws the selected node's form and its actions. */
function renderForm() {
  const schema = ed.schema;
  if (!schema || !ed.doc) return;
  const path = ed.selected;
  const node = ed.nodes.get(path);
  const v = valueAtNode(path);
  if (!node) return;
  fill($('node-actions'), ...nodeActions(path));
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    $('form-title').textContent = path;
    fill($('form'), h('p.muted', { text: 'This item is not a mapping of keys, so it has no form here: the check says what it should be. Remove it, or open the file in a text editor.' }));
    return;
  }
  $('form-title').textContent = path === '' ? 'Scenario' : nodeLabel(node.r.name, v, String(segments(path).filter((x) => typeof x === 'string').pop()));
  const fields = formFields(schema, node.r.s, v, node.top, () => changed({ form: false }));
  fill($('form'), ...fields, ...addControls(path, node, v));
}

/**
 * The actions on the selected node: up, down, remove, copy, paste.
 * @param {string} path
 * @returns {HTMLElement[]}
 */
function nodeActions(path) {
  const segs = segments(path);
  const last = segs[segs.length - 1];
  const out = [];
  const act = (/** @type {string} */ name, /** @type {string} */ text, /** @type {string} */ title, /** @type {() => void} */ fn, disabled = false) =>
    h('button.btn.small.ed-act', { type: 'button', dataset: { act: name }, title, text, disabled, on: { click: fn } });
  if (typeof last === 'number') {
    const list = valueAt(ed.doc, joinPath(segs.slice(0, -1)));
    out.push(act('up', '↑', 'Move up', () => move(path, -1), last === 0));
    out.push(act('down', '↓', 'Move down', () => move(path, 1), last >= list.length - 1));
    out.push(act('copy', 'Copy', 'Copy this formation or piece, to paste it elsewhere', () => copy(path)));
    out.push(act('remove', 'Remove', 'Remove it and all under it', () => remove(path)));
  }
  const clip = clipboard();
  if (clip && pasteTarget(path, clip)) out.push(act('paste', `Paste ${clip.def}`, `Paste the copied ${clip.def} ${clip.value.id || ''} here`, () => paste(path)));
  return out;
}

/**
 * The controls that add to a node's lists: one button a list, and for a
 * list of units a bulk add of N of a type.
 * @param {string} path @param {{r: any, top: boolean}} node @param {any} v
 * @returns {HTMLElement[]}
 */
function addControls(path, node, v) {
  const schema = /** @type {Schema} */ (ed.schema);
  const out = [];
  // A list the format holds no more of (a scenario's two sides) offers no add.
  const lists = schema.children(node.r.s, node.top).filter((c) => c.list && !(Array.isArray(v[c.key]) && v[c.key].length >= c.max));
  const singles = schema.children(node.r.s, node.top).filter((c) => !c.list && (v[c.key] === undefined || v[c.key] === null));
  if (!lists.length && !singles.length) return out;
  const buttons = [
    ...lists.map((c) => h('button.btn.small', { type: 'button', dataset: { add: c.key }, text: `+ ${c.item.name || c.key}`, title: firstWords(c.item.description), on: { click: () => add(path, c.key) } })),
    ...singles.map((c) => h('button.btn.small', { type: 'button', dataset: { add: c.key }, text: `+ ${c.key}`, title: firstWords(c.item.description), on: { click: () => addSingle(path, c.key) } })),
  ];
  out.push(h('fieldset.ed-group.ed-add', null, h('legend', { text: 'Add' }), h('div.ed-row', null, ...buttons)));
  const units = lists.find((c) => c.item.name === 'unit');
  if (units) {
    const req = new Set(units.item.s.required || []);
    const typed = Object.entries(units.item.s.properties || {}).find(([k, p]) => req.has(k) && k !== 'id' && Array.isArray(schema.resolve(p).s.enum));
    const count = /** @type {HTMLInputElement} */ (h('input#bulk-count', { type: 'number', min: 1, max: MAX_BULK, value: 4, 'aria-label': 'How many units' }));
    const type = typed ? /** @type {HTMLSelectElement} */ (h('select#bulk-type', { 'aria-label': typed[0] }, ...schema.resolve(typed[1]).s.enum.map((/** @type {string} */ e) => h('option', { value: e, text: e })))) : null;
    const go = h('button#bulk-add.btn.small', { type: 'button', text: 'Add units' });
    go.addEventListener('click', () => {
      const n = Math.round(Number(count.value));
      if (!(n >= 1 && n <= MAX_BULK)) { banner(`Add 1 to ${MAX_BULK} units at a time.`); return; }
      bulk(path, units.key, n, typed && type ? { [typed[0]]: type.value } : {});
    });
    out.push(h('fieldset.ed-group.ed-bulk', null, h('legend', { text: 'Bulk add' }), h('div.ed-row', null, count, type ? h('span', { text: typed ? `units of ${typed[0]}` : 'units' }) : null, type, go)));
  }
  return out;
}

/** @param {string} d */
function firstWords(d) { return (d || '').split(/(?<=[.;:])\s/)[0]; }

/**
 * A maker of new ids: unique in the document, made from the nearest
 * ancestor's id (its units d1-1, d1-2; its general d1-g).
 * @param {string} path the path of the list or key the item goes to
 * @param {Set<string>} used
 */
function idMaker(path, used) {
  const segs = segments(path);
  let base = '';
  for (let n = segs.length; n >= 0 && !base; n--) {
    const v = valueAt(ed.doc, joinPath(segs.slice(0, n)));
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof v.id === 'string') base = v.id;
  }
  return (/** @type {any} */ r, /** @type {string} */ parent) => {
    const what = r.name === 'general' ? 'g' : (r.name || 'x').slice(0, 1);
    const b = parent || base;
    return uniqueId(b ? `${b}-${what}1` : `${what}1`, used);
  };
}

/**
 * Adds an item to a node's list, like the last one there.
 * @param {string} path @param {string} key
 */
function add(path, key) {
  const node = /** @type {any} */ (ed.nodes.get(path));
  const c = /** @type {Schema} */ (ed.schema).children(node.r.s, node.top).find((x) => x.key === key);
  if (!c) return;
  const v = valueAtNode(path);
  if (!Array.isArray(v[key])) v[key] = [];
  const like = v[key][v[key].length - 1];
  const lp = path ? `${path}.${key}` : key;
  v[key].push(/** @type {Schema} */ (ed.schema).make(c.item, idMaker(lp, ids(ed.doc)), like));
  const at = `${lp}[${v[key].length - 1}]`;
  changed();
  select(at);
}

/**
 * Adds a node's missing single child (a general).
 * @param {string} path @param {string} key
 */
function addSingle(path, key) {
  const node = /** @type {any} */ (ed.nodes.get(path));
  const c = /** @type {Schema} */ (ed.schema).children(node.r.s, node.top).find((x) => x.key === key);
  if (!c) return;
  const v = valueAtNode(path);
  const p = path ? `${path}.${key}` : key;
  v[key] = c.item.s.properties && c.item.s.properties.id ? /** @type {Schema} */ (ed.schema).make(c.item, idMaker(p, ids(ed.doc))) : {};
  changed();
  select(p);
}

/**
 * Adds n units to a list, each like the last one there with the values of set.
 * @param {string} path @param {string} key @param {number} n @param {any} set
 */
function bulk(path, key, n, set) {
  const node = /** @type {any} */ (ed.nodes.get(path));
  const c = /** @type {Schema} */ (ed.schema).children(node.r.s, node.top).find((x) => x.key === key);
  if (!c) return;
  const v = valueAtNode(path);
  if (!Array.isArray(v[key])) v[key] = [];
  const used = ids(ed.doc);
  const lp = path ? `${path}.${key}` : key;
  const mk = idMaker(lp, used);
  for (let i = 0; i < n; i++) {
    const like = v[key][v[key].length - 1];
    v[key].push({ ...(/** @type {Schema} */ (ed.schema).make(c.item, mk, like)), ...set });
  }
  changed();
}

/**
 * Moves a node up or down its list.
 * @param {string} path @param {number} by
 */
function move(path, by) {
  const segs = segments(path);
  const i = /** @type {number} */ (segs[segs.length - 1]);
  const list = valueAt(ed.doc, joinPath(segs.slice(0, -1)));
  const j = i + by;
  if (!Array.isArray(list) || j < 0 || j >= list.length) return;
  [list[i], list[j]] = [list[j], list[i]];
  ed.selected = joinPath([...segs.slice(0, -1), j]);
  changed();
}

/**
 * Removes a node from its list.
 * @param {string} path
 */
function remove(path) {
  const segs = segments(path);
  const i = /** @type {number} */ (segs[segs.length - 1]);
  const list = valueAt(ed.doc, joinPath(segs.slice(0, -1)));
  if (!Array.isArray(list)) return;
  list.splice(i, 1);
  // The parent node is selected.
  let up = segs.slice(0, -2);
  while (up.length && !ed.nodes.has(joinPath(up))) up = up.slice(0, -1);
  ed.selected = joinPath(up);
  changed();
}

/**
 * The copied node, if any: its definition's name and value.
 * @returns {{def: string, value: any}|null}
 */
function clipboard() {
  try {
    const c = JSON.parse(sessionStorage.getItem(CLIP_KEY) || 'null');
    return c && typeof c.def === 'string' && c.value && typeof c.value === 'object' ? c : null;
  } catch { return null; }
}

/**
 * Copies a node.
 * @param {string} path
 */
function copy(path) {
  const node = ed.nodes.get(path);
  if (!node) return;
  try {
    sessionStorage.setItem(CLIP_KEY, JSON.stringify({ def: node.r.name, value: valueAtNode(path) }));
  } catch { banner('The copy is too big to keep.'); return; }
  renderForm();
}

/**
 * Where a copied node may be pasted under a node: the key of a list of
 * the node that holds its kind ('' when none).
 * @param {string} path @param {{def: string}} clip
 */
function pasteTarget(path, clip) {
  const node = ed.nodes.get(path);
  if (!node) return '';
  const c = /** @type {Schema} */ (ed.schema).children(node.r.s, node.top).find((x) => x.list && x.item.name === clip.def);
  return c ? c.key : '';
}

/**
 * Pastes the copied node into the selected node's list of its kind, with
 * new ids for it and all under it.
 * @param {string} path
 */
function paste(path) {
  const clip = clipboard();
  if (!clip) return;
  const key = pasteTarget(path, clip);
  if (!key) return;
  const v = valueAtNode(path);
  if (!Array.isArray(v[key])) v[key] = [];
  const value = structuredClone(clip.value);
  renameIds(value, ids(ed.doc));
  v[key].push(value);
  const p = `${path ? `${path}.` : ''}${key}[${v[key].length - 1}]`;
  changed();
  select(p);
}

// ---- save, open, start ----

/** Downloads the canonical YAML of the last check. */
function save() {
  const c = ed.check;
  if (!c || !c.yaml || ed.checked !== ed.version) return;
  const url = URL.createObjectURL(new Blob([c.yaml], { type: 'text/yaml' }));
  const a = /** @type {HTMLAnchorElement} */ (h('a', { href: url, download: `${fileName()}.yaml` }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Starts a game from the canonical YAML, with the options chosen. */
async function start() {
  const c = ed.check;
  if (!c || !c.ok || ed.checked !== ed.version) return;
  /** @type {any} */
  const o = { source: c.yaml, file: `${fileName()}.yaml` };
  if ($('commanders').checked) o.commanders = true;
  if ($('fog').value !== 'off') o.fog = $('fog').value;
  if ($('dice').value !== 'server') o.dice = $('dice').value;
  const title = $('title').value.trim();
  if (title) o.title = title;
  const tables = $('tables-file').files[0];
  if (tables) {
    o.tables = await readFile(tables, 'text');
    o['tables-file'] = tables.name;
  } else if (ed.info && ed.info['example-tables'] && $('example-tables').checked) {
    o['example-tables'] = true;
  }
  $('start-game').disabled = true;
  try {
    const made = await ed.api.post('/api/games', o);
    $('start').hidden = true;
    showCreated($('created'), made);
  } finally {
    $('start-game').disabled = false;
  }
}

// ---- imports ----

/**
 * Imports a roster: its sides replace the document's, or are added to
 * them (a side of the same id takes the imported formations).
 * @param {boolean} replace
 */
async function roster(replace) {
  const file = $('roster-file').files[0];
  if (file && file.size > MAX_ROSTER) throw new ApiError(0, 'file', `The roster ${file.name} is over ${MAX_ROSTER >> 20} MiB.`);
  const text = file ? await readFile(file, 'text') : $('roster-text').value;
  if (!text.trim()) throw new ApiError(0, 'file', 'Choose a roster file or paste its rows first.');
  const res = await ed.api.post('/api/editor/roster', { rules: ed.rules, text, file: file ? file.name : 'pasted.tsv' });
  const probs = res.problems || [];
  fill($('roster-problems'), ...probs.map((/** @type {any} */ p) => h('li.problem', { dataset: { row: p.row, column: p.column || '' } },
    h('code', { text: `row ${p.row}${p.column ? `, ${p.column}` : ''}` }), ' ', p.message)));
  if (probs.length || !Array.isArray(res.sides) || !res.sides.length) return;
  if (replace || !Array.isArray(ed.doc.sides)) {
    ed.doc.sides = res.sides;
  } else {
    for (const side of res.sides) {
      const mine = ed.doc.sides.find((/** @type {any} */ x) => x.id === side.id);
      if (!mine) { ed.doc.sides.push(side); continue; }
      for (const [k, v] of Object.entries(side)) {
        if (Array.isArray(v)) {
          const used = ids(ed.doc);
          renameIds(v, used);
          mine[k] = [...(Array.isArray(mine[k]) ? mine[k] : []), ...v];
        } else if (mine[k] === undefined) mine[k] = v;
      }
    }
  }
  ed.selected = 'sides[0]';
  changed();
}

/** Downloads the rule set's roster template (with the host token, so by fetch). */
async function template() {
  const headers = /** @type {Record<string, string>} */ ({});
  if (ed.api.token) headers.Authorization = `Bearer ${ed.api.token}`;
  const res = await fetch(`/api/editor/${encodeURIComponent(ed.rules)}/roster.csv`, { headers, credentials: 'omit', cache: 'no-store' });
  if (!res.ok) throw new ApiError(res.status, 'http', `The template could not be had: the server answered ${res.status}.`);
  const url = URL.createObjectURL(await res.blob());
  const a = /** @type {HTMLAnchorElement} */ (h('a', { href: url, download: `${ed.rules}-roster.csv` }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Reads a VASSAL module's board into the document's map.
 * @param {string} [board] the board chosen, when the module has several
 */
async function vmod(board) {
  if (!ed.vmod) return;
  const res = await ed.api.post('/api/editor/vmod', { data: ed.vmod.data, file: ed.vmod.file, ...(board ? { board } : {}) });
  ed.boards = Array.isArray(res.boards) ? res.boards : [];
  const sel = $('vmod-board');
  fill(sel, ...ed.boards.map((b) => h('option', { value: b, text: b })));
  if (board) sel.value = board;
  $('vmod-board-field').hidden = ed.boards.length < 2;
  if (!res.map || typeof res.map !== 'object') return;
  if (ed.doc.field !== undefined && ed.schema && !ed.schema.root.properties.map) {
    throw new ApiError(0, 'file', `The ${ed.rules.toUpperCase()} rules play on a table, not a hex map: a board cannot be their field.`);
  }
  ed.doc.map = res.map;
  ed.selected = 'map';
  changed();
}

/**
 * Puts a backdrop image under the table or hex map, with a first guess at
 * its placing (the image across the table, or a hex a column) that the
 * field's tools calibrate.
 * @param {File} file
 */
async function backdrop(file) {
  if (!/^image\/(png|jpeg|gif)$/.test(file.type)) throw new ApiError(0, 'file', `${file.name} is not a PNG, JPEG or GIF image.`);
  if (file.size > MAX_IMAGE) throw new ApiError(0, 'file', `${file.name} is over ${MAX_IMAGE >> 20} MiB; a backdrop may have at most that.`);
  const data = await readFile(file, 'url');
  const img = new Image();
  img.src = data;
  await img.decode().catch(() => { throw new ApiError(0, 'file', `${file.name} could not be read as an image.`); });
  const w = img.naturalWidth, hh = img.naturalHeight;
  const r1 = (/** @type {number} */ x) => Math.round(x * 100) / 100;
  if (ed.doc.map && typeof ed.doc.map === 'object') {
    const cols = Number(ed.doc.map.columns) || 1, rows = Number(ed.doc.map.rows) || 1;
    const dx = r1(w / cols), dy = r1(hh / rows);
    ed.doc.map.image = { data, x0: r1(dx / 2), y0: r1(dy / 2), dx, dy };
    ed.selected = 'map';
  } else {
    if (!ed.doc.field || typeof ed.doc.field !== 'object') ed.doc.field = {};
    const width = Number(ed.doc.field.width) || w;
    ed.doc.field.image = { data, scale: r1(w / width), at: [0, 0] };
    ed.selected = 'field';
  }
  changed();
  // the first guess is rarely right: the field's calibration is what comes next
  if (ed.field) ed.field.setTool({ kind: 'calibrate' });
}

/** Removes the backdrop image. */
function removeBackdrop() {
  for (const k of ['map', 'field']) if (ed.doc[k] && typeof ed.doc[k] === 'object') delete ed.doc[k].image;
  changed();
}

// ---- start up ----

function wire() {
  $('banner').querySelector('.banner-close').addEventListener('click', () => { $('banner').hidden = true; });
  $('open-file').addEventListener('change', () => {
    const file = $('open-file').files[0];
    if (file) run(async () => openSource(await readFile(file, 'text'), file.name));
    $('open-file').value = '';
  });
  $('save').addEventListener('click', save);
  $('new').addEventListener('click', () => run(choose));
  $('choose-back').addEventListener('click', () => { $('choose').hidden = true; $('editor').hidden = false; showField(); });
  $('start-open').addEventListener('click', () => {
    $('start').hidden = false;
    if (!$('title').value && ed.doc && ed.doc.title) $('title').placeholder = ed.doc.title;
    $('start').scrollIntoView({ block: 'start' });
  });
  $('start-cancel').addEventListener('click', () => { $('start').hidden = true; });
  $('start-game').addEventListener('click', () => run(start));
  $('created-close').addEventListener('click', () => { $('created').hidden = true; });
  $('roster-replace').addEventListener('click', () => run(() => roster(true)));
  $('roster-add').addEventListener('click', () => run(() => roster(false)));
  $('roster-template').addEventListener('click', () => run(template));
  $('vmod-file').addEventListener('change', () => {
    const file = $('vmod-file').files[0];
    if (!file) return;
    run(async () => {
      if (file.size > MAX_VMOD) throw new ApiError(0, 'file', `${file.name} is over ${MAX_VMOD >> 20} MiB.`);
      const url = await readFile(file, 'url');
      ed.vmod = { data: url.slice(url.indexOf(',') + 1), file: file.name };
      await vmod();
    });
  });
  $('vmod-board').addEventListener('change', () => run(() => vmod($('vmod-board').value)));
  $('image-file').addEventListener('change', () => {
    const file = $('image-file').files[0];
    if (file) run(() => backdrop(file));
    $('image-file').value = '';
  });
  $('image-remove').addEventListener('click', removeBackdrop);
  ed.field = new FieldEditor($('field'), {
    changed: (/** @type {any} */ doc, /** @type {string|undefined} */ path) => {
      ed.doc = doc;
      if (path && ed.nodes.has(path)) ed.selected = path;
      changed();
    },
    select: (/** @type {string} */ path) => select(path),
  });
  $('field-tools').replaceChildren(ed.field.tools());
  // The field's "Image…": the backdrop's chooser, under Imports.
  $('field-tools').addEventListener('fe-choose-image', () => {
    /** @type {HTMLDetailsElement} */ ($('imports')).open = true;
    $('image-file').scrollIntoView({ block: 'nearest' });
    $('image-file').click();
  });
}

/** Opens what the address asks for, or the document kept for this tab, or the choice of rule sets. */
async function boot() {
  wire();
  const frag = new URLSearchParams(location.hash.replace(/^#/, ''));
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  const rules = frag.get('rules');
  const scenario = frag.get('scenario');
  if (rules) return run(() => open(rules, null));
  if (scenario) {
    return run(async () => {
      const src = await ed.api.get(`/api/scenarios/${encodeURIComponent(scenario)}/source`);
      await openSource(src.source, src.file || `${scenario}.yaml`);
    });
  }
  /** @type {any} */
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(DOC_KEY) || 'null'); } catch { kept = null; }
  if (kept && typeof kept.rules === 'string' && kept.doc && typeof kept.doc === 'object') return run(() => open(kept.rules, kept.doc));
  return run(choose);
}

boot();
