// The form of the selected node, generated from its schema definition:
// one field a property (a select for a list of words, a number with its
// bounds, a check box, a text, a position, an order as its kind or in
// full, a nested group for an object). Each field edits the document in
// place and calls commit; the page computes no rule, and the server's
// check says what is wrong.

import { h } from '../dom.js';

/**
 * @typedef {import('./schema.js').Schema} Schema
 * @typedef {import('./schema.js').Resolved} Resolved
 */

/**
 * Builds the fields of obj's form.
 * @param {Schema} schema
 * @param {any} s obj's schema, resolved
 * @param {any} obj the node's object in the document (edited in place)
 * @param {boolean} top whether obj is the document itself
 * @param {() => void} commit called after each change
 * @returns {HTMLElement[]}
 */
export function formFields(schema, s, obj, top, commit) {
  return schema.fields(s, top).map((f) => field(schema, obj, f.key, f.r, f.kind, f.required, commit, f.key));
}

/**
 * One field: a label with the property's name and description, and its
 * control. data-key names the property's place below the node (order.kind).
 * @param {Schema} schema
 * @param {any} obj the object that holds the property
 * @param {string} key
 * @param {Resolved} r the property's schema
 * @param {import('./schema.js').Kind} kind
 * @param {boolean} required
 * @param {() => void} commit
 * @param {string} dkey
 * @returns {HTMLElement}
 */
function field(schema, obj, key, r, kind, required, commit, dkey) {
  const s = r.s;
  const hint = firstSentence(r.description);
  const label = (/** @type {Node} */ control) => h(`label.field.ed-f.ed-${kind}`, { title: r.description || undefined },
    h('span', null, key, required ? h('abbr.req', { title: 'required', text: ' *' }) : null), control,
    hint ? h('small.muted.hint', { text: hint }) : null);
  const set = (/** @type {any} */ v) => {
    if (v === undefined) delete obj[key];
    else obj[key] = v;
    commit();
  };
  const v = obj[key];
  switch (kind) {
    case 'enum': {
      const sel = h('select', { dataset: { key: dkey }, name: dkey });
      sel.append(h('option', { value: '', text: s.default !== undefined ? `(default: ${s.default})` : '—' }));
      for (const e of s.enum) sel.append(h('option', { value: String(e), text: String(e) }));
      if (v !== undefined && !s.enum.includes(v)) sel.append(h('option', { value: String(v), text: `${v} (not allowed)` }));
      /** @type {HTMLSelectElement} */ (sel).value = v === undefined ? '' : String(v);
      sel.addEventListener('change', () => { const x = /** @type {HTMLSelectElement} */ (sel).value; set(x === '' ? undefined : x); });
      return label(sel);
    }
    case 'integer':
    case 'number': {
      const inp = /** @type {HTMLInputElement} */ (h('input', {
        type: 'number', dataset: { key: dkey }, name: dkey, step: kind === 'integer' ? 1 : 'any',
        min: s.minimum ?? s.exclusiveMinimum, max: s.maximum ?? s.exclusiveMaximum,
        placeholder: s.default !== undefined ? `default ${s.default}` : '',
      }));
      inp.value = v === undefined || v === null ? '' : String(v);
      inp.addEventListener('input', () => set(numberOf(inp.value)));
      return label(inp);
    }
    case 'boolean': {
      const inp = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', dataset: { key: dkey }, name: dkey }));
      inp.checked = v === true || (v === undefined && s.default === true);
      inp.addEventListener('change', () => set(inp.checked ? true : s.default === true ? false : undefined));
      return h('label.check.ed-f.ed-boolean', { title: r.description || undefined }, inp, h('span', { text: key }));
    }
    case 'text': {
      const ta = /** @type {HTMLTextAreaElement} */ (h('textarea.mono', { dataset: { key: dkey }, name: dkey, rows: 6, spellcheck: 'false' }));
      ta.value = typeof v === 'string' ? v : '';
      ta.addEventListener('input', () => set(ta.value === '' ? undefined : ta.value));
      return label(ta);
    }
    case 'image': {
      const ok = typeof v === 'string' && /^data:image\/(png|jpeg|gif);/.test(v);
      return label(h('span.ed-thumb', { dataset: { key: dkey } },
        ok ? h('img', { src: v, alt: 'the backdrop image' }) : h('span.muted', { text: 'none: choose one under Imports' })));
    }
    case 'label':
    case 'string': {
      const inp = /** @type {HTMLInputElement} */ (h('input', { type: 'text', dataset: { key: dkey }, name: dkey, spellcheck: 'false', autocomplete: 'off' }));
      inp.value = v === undefined || v === null ? '' : String(v);
      inp.addEventListener('input', () => set(inp.value === '' ? undefined : inp.value));
      return label(inp);
    }
    case 'pair': {
      const xs = [0, 1].map((i) => {
        const inp = /** @type {HTMLInputElement} */ (h('input', { type: 'number', step: 'any', dataset: { key: `${dkey}.${i}` }, name: `${dkey}.${i}`, 'aria-label': `${key} ${i ? 'y' : 'x'}`, placeholder: i ? 'y' : 'x' }));
        inp.value = Array.isArray(v) && v[i] !== undefined && v[i] !== null ? String(v[i]) : '';
        return inp;
      });
      const read = () => {
        const [x, y] = xs.map((i) => numberOf(i.value));
        if (x === undefined && y === undefined) set(undefined);
        else set([x ?? 0, y ?? 0]);
      };
      for (const i of xs) i.addEventListener('input', read);
      return label(h('span.ed-xy', { dataset: { key: dkey } }, h('span', { text: 'x' }), xs[0], h('span', { text: 'y' }), xs[1]));
    }
    case 'list': {
      const inp = /** @type {HTMLInputElement} */ (h('input', { type: 'text', dataset: { key: dkey }, name: dkey, placeholder: 'separated by commas' }));
      inp.value = Array.isArray(v) ? v.join(', ') : '';
      const it = schema.resolve(s.items).s;
      inp.addEventListener('input', () => {
        const parts = inp.value.split(',').map((x) => x.trim()).filter((x) => x !== '');
        set(parts.length ? parts.map((x) => (it.type === 'string' ? x : numberOf(x) ?? x)) : undefined);
      });
      return label(inp);
    }
    case 'order': {
      const { kinds, map } = schema.orderParts(s);
      /** @type {any} */
      const o = typeof v === 'string' ? { kind: v } : v && typeof v === 'object' ? { ...v } : {};
      const write = () => {
        const keys = Object.keys(o).filter((k) => o[k] !== undefined);
        if (!keys.length) set(undefined);
        else if (keys.length === 1 && keys[0] === 'kind' && kinds.includes(o.kind)) set(o.kind);
        else set({ ...o });
      };
      const inner = Object.entries(map.properties).map(([k, p]) => {
        const pr = schema.resolve(p);
        return field(schema, o, k, pr, schema.kind(pr, k), false, write, `${dkey}.${k}`);
      });
      return group(key, dkey, r, hint, v !== undefined || required, inner, 'ed-order');
    }
    case 'object': {
      /** @type {any} */
      const o = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
      const write = () => {
        if (Object.keys(o).length) set(o);
        else set(undefined);
      };
      const req = new Set(s.required || []);
      const inner = Object.entries(s.properties).map(([k, p]) => {
        const pr = schema.resolve(p);
        return field(schema, o, k, pr, schema.kind(pr, k), req.has(k), write, `${dkey}.${k}`);
      });
      return group(key, dkey, r, hint, v !== undefined || required, inner, '');
    }
    default: {
      const ta = /** @type {HTMLTextAreaElement} */ (h('textarea.mono', { dataset: { key: dkey }, name: dkey, rows: 3, spellcheck: 'false', placeholder: 'JSON' }));
      ta.value = v === undefined ? '' : JSON.stringify(v);
      ta.addEventListener('input', () => {
        if (ta.value.trim() === '') { ta.classList.remove('bad'); set(undefined); return; }
        try {
          const x = JSON.parse(ta.value);
          ta.classList.remove('bad');
          set(x);
        } catch {
          ta.classList.add('bad'); // not JSON yet: the document keeps its last value
        }
      });
      return label(ta);
    }
  }
}

/**
 * A group of fields (an order, a nested object), folded while it is
 * empty: a scenario leaves most of them out.
 * @param {string} key @param {string} dkey @param {Resolved} r @param {string} hint
 * @param {boolean} open @param {HTMLElement[]} inner @param {string} cls
 */
function group(key, dkey, r, hint, open, inner, cls) {
  return h(`details.ed-group${cls ? `.${cls}` : ''}`, { dataset: { key: dkey }, title: r.description || undefined, open },
    h('summary', { text: key }), hint ? h('small.muted.hint', { text: hint }) : null, ...inner);
}

/**
 * A number typed in a field, or undefined when there is none.
 * @param {string} text
 */
function numberOf(text) {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The first sentence of a description, for the hint under a field.
 * @param {string} d
 */
function firstSentence(d) {
  const m = /^(.*?[.:])(\s|$)/.exec(d || '');
  return m ? m[1] : d || '';
}
