// The scenario format as the editor reads it: the JSON Schema that
// `orderly schema scenario --rules X` prints (GET /api/schema/scenario/X),
// turned into what the tree and the forms need: which properties of a
// node are nodes of their own (the order of battle's lists and generals),
// which are fields of its form and of what kind, and new items with the
// required keys. Nothing here knows a rule set: a new field in the Go
// types shows up in the page without a change here.

/**
 * @typedef {{name: string, s: any, description: string}} Resolved
 *   a schema with its $refs followed: name is the last definition's
 *   name ('' for an inline schema), description the outermost one given
 */

/**
 * @typedef {'enum'|'integer'|'number'|'boolean'|'string'|'text'|'image'|'pair'|'label'|'order'|'object'|'list'|'json'} Kind
 */

export class Schema {
  /** @param {any} root the scenario's JSON Schema */
  constructor(root) {
    this.root = root || {};
    this.defs = this.root.$defs || {};
  }

  /**
   * Follows the $refs of sch.
   * @param {any} sch
   * @returns {Resolved}
   */
  resolve(sch) {
    let name = '';
    const description = (sch && sch.description) || '';
    let s = sch || {};
    for (let i = 0; s && s.$ref && i < 16; i++) {
      name = String(s.$ref).replace(/^#\/\$defs\//, '');
      s = this.defs[name] || {};
    }
    return { name, s, description: description || s.description || '' };
  }

  /**
   * Whether sch (resolved) describes a piece of the order of battle or of
   * the field: an object with an id among its properties.
   * @param {any} s
   */
  isNode(s) {
    return !!(s && s.type === 'object' && s.properties && s.properties.id);
  }

  /**
   * The properties of an object schema that are nodes of the tree: a
   * single node (a general) or a list of them (corps, units, features).
   * At the top of the document, the objects (the field or map) are nodes
   * too.
   * @param {any} s an object schema, resolved
   * @param {boolean} top whether it is the document's
   * @returns {{key: string, list: boolean, item: Resolved, required: boolean, min: number, max: number}[]}
   */
  children(s, top) {
    const out = [];
    const req = new Set(s.required || []);
    for (const [key, p] of Object.entries(s.properties || {})) {
      const r = this.resolve(p);
      if (r.s.type === 'array' && r.s.items) {
        const it = this.resolve(r.s.items);
        if (this.isNode(it.s)) out.push({ key, list: true, item: it, required: req.has(key), min: r.s.minItems || 0, max: r.s.maxItems ?? Infinity });
      } else if (this.isNode(r.s) || (top && r.s.type === 'object' && r.s.properties)) {
        out.push({ key, list: false, item: r, required: req.has(key), min: 0, max: 1 });
      }
    }
    return out;
  }

  /**
   * The properties of an object schema that its form shows: all but the
   * tree's children.
   * @param {any} s an object schema, resolved
   * @param {boolean} top
   * @returns {{key: string, r: Resolved, kind: Kind, required: boolean}[]}
   */
  fields(s, top) {
    const kids = new Set(this.children(s, top).map((c) => c.key));
    const req = new Set(s.required || []);
    return Object.entries(s.properties || {}).filter(([k]) => !kids.has(k)).map(([key, p]) => {
      const r = this.resolve(p);
      return { key, r, kind: this.kind(r, key), required: req.has(key) };
    });
  }

  /**
   * What kind of form field a property takes.
   * @param {Resolved} r
   * @param {string} key
   * @returns {Kind}
   */
  kind(r, key) {
    const s = r.s;
    if (Array.isArray(s.oneOf)) {
      const str = s.oneOf.find((/** @type {any} */ o) => o.type === 'string' && Array.isArray(o.enum));
      const obj = s.oneOf.find((/** @type {any} */ o) => o.type === 'object' && o.properties && o.properties.kind);
      return str && obj ? 'order' : 'json';
    }
    if (Array.isArray(s.enum)) return 'enum';
    if (s.type === 'integer') return 'integer';
    if (s.type === 'number') return 'number';
    if (s.type === 'boolean') return 'boolean';
    if (s.type === 'string') {
      if (key === 'data' && /image/i.test(r.description + (s.description || ''))) return 'image';
      if (r.name === 'position') return 'label';
      if (!s.pattern && /\bgrid\b|\bYAML block\b/i.test(r.description)) return 'text';
      return 'string';
    }
    if (s.type === 'array') {
      if (Array.isArray(s.prefixItems) && s.prefixItems.length === 2 && s.items === false) return 'pair';
      const it = this.resolve(s.items || {});
      if (s.minItems === 2 && s.maxItems === 2 && ['number', 'integer'].includes(it.s.type)) return 'pair';
      if (['string', 'integer', 'number'].includes(it.s.type)) return 'list';
      return 'json';
    }
    if (s.type === 'object' && s.properties) return 'object';
    return 'json';
  }

  /**
   * The two variants of an order: the bare kind's enum and the mapping.
   * @param {any} s an order's schema, resolved
   * @returns {{kinds: string[], map: any}}
   */
  orderParts(s) {
    const str = s.oneOf.find((/** @type {any} */ o) => o.type === 'string');
    const obj = s.oneOf.find((/** @type {any} */ o) => o.type === 'object');
    return { kinds: str.enum, map: obj };
  }

  /**
   * A new item of a node's schema: its required keys, each with its
   * schema's default or first allowed word, its required nodes made too
   * (a formation's general, a division's first unit), and the values of
   * like (a sibling of the same kind) for the keys the schema does not
   * fill: a new unit is like the one above it. Ids come from newId.
   * Keys with no default are left out: the check asks for them.
   * @param {Resolved} r
   * @param {(r: Resolved, parent: string) => string} newId
   * @param {any} [like]
   * @param {string} [parent] the id of the item made above this one
   * @returns {any}
   */
  make(r, newId, like, parent = '') {
    const s = r.s;
    /** @type {any} */
    const o = {};
    const kids = new Map(this.children(s, false).map((c) => [c.key, c]));
    if (like && typeof like === 'object') {
      for (const [k, v] of Object.entries(like)) {
        if (k === 'id' || k === 'name' || k === 'at' || kids.has(k)) continue;
        o[k] = structuredClone(v);
      }
    }
    for (const key of s.required || []) {
      if (o[key] !== undefined) continue;
      const c = kids.get(key);
      if (key === 'id') { o.id = newId(r, parent); continue; }
      if (c && !c.list) { o[key] = this.make(c.item, newId, like && like[key], o.id || parent); continue; }
      if (c && c.list) {
        o[key] = [];
        for (let i = 0; i < Math.max(1, c.min); i++) o[key].push(this.make(c.item, newId, like && like[key] && like[key][0], o.id || parent));
        continue;
      }
      const p = this.resolve(s.properties[key]);
      const kind = this.kind(p, key);
      if (p.s.default !== undefined) o[key] = structuredClone(p.s.default);
      else if (kind === 'enum') o[key] = p.s.enum[0];
      else if (kind === 'order') o[key] = this.orderParts(p.s).kinds[0];
    }
    return o;
  }
}

/**
 * The segments of a path: "sides[0].corps[1]" -> ['sides', 0, 'corps', 1].
 * @param {string} path
 * @returns {(string|number)[]}
 */
export function segments(path) {
  /** @type {(string|number)[]} */
  const out = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

/**
 * The path of segments, as the loader writes it.
 * @param {(string|number)[]} segs
 */
export function joinPath(segs) {
  let p = '';
  for (const s of segs) p += typeof s === 'number' ? `[${s}]` : p ? `.${s}` : s;
  return p;
}

/**
 * The value at a path of doc, or undefined.
 * @param {any} doc @param {string} path
 */
export function valueAt(doc, path) {
  let v = doc;
  for (const s of segments(path)) {
    if (v == null || typeof v !== 'object') return undefined;
    v = v[s];
  }
  return v;
}

/**
 * Every id in v, at any depth.
 * @param {any} v
 * @param {Set<string>} [into]
 */
export function ids(v, into = new Set()) {
  if (Array.isArray(v)) for (const x of v) ids(x, into);
  else if (v && typeof v === 'object') {
    if (typeof v.id === 'string') into.add(v.id);
    for (const x of Object.values(v)) if (x && typeof x === 'object') ids(x, into);
  }
  return into;
}

/**
 * An id not in used, made from base: base itself, or base-2, base-3...
 * (within the format's 64 characters); it is added to used.
 * @param {string} base
 * @param {Set<string>} used
 */
export function uniqueId(base, used) {
  const b = (base.replace(/[^A-Za-z0-9._-]/g, '-') || 'x').slice(0, 56);
  let id = b;
  // d1 is followed by d2, d3; an id without a number at its end by id-2.
  const m = /^(.*?)(\d+)$/.exec(b);
  for (let n = m ? Number(m[2]) + 1 : 2; used.has(id); n++) id = m ? `${m[1]}${n}` : `${b}-${n}`;
  used.add(id);
  return id;
}

/**
 * Gives every id in v a new one not in used (a pasted formation).
 * @param {any} v
 * @param {Set<string>} used
 */
export function renameIds(v, used) {
  if (Array.isArray(v)) for (const x of v) renameIds(x, used);
  else if (v && typeof v === 'object') {
    if (typeof v.id === 'string') v.id = uniqueId(v.id, used);
    for (const x of Object.values(v)) if (x && typeof x === 'object') renameIds(x, used);
  }
}
