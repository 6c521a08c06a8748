// Writing an order: recipients, kind, objective (tapped on the map or
// typed), note; the server's forecast (the exact odds of the delay roll
// the recipient will make, and when the messenger should bring the
// order), fetched before the order may be sent; then the command, and the
// rule's answer.

import { h, fill, num, pt, squareOf, debounce } from '../../dom.js';
import { sentence } from '../../api.js';

/**
 * @typedef {{
 *   api: import('../../api.js').Api,
 *   model: () => any,
 *   onObjective: (p:number[]|null) => void,
 *   onSent: (result:any) => void,
 *   banner: (msg:string) => void
 * }} OrderHooks
 */

export class OrderForm {
  /** @param {OrderHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    const $ = (id) => /** @type {any} */ (document.getElementById(id));
    this.el = {
      form: $('order-form'), status: $('order-status'), forList: $('order-for'), toField: $('order-to-field'),
      to: $('order-to'), kind: $('order-kind'), x: $('order-x'), y: $('order-y'), clear: $('order-clear'),
      square: $('order-square'), note: $('order-note'), odds: $('order-odds'), send: $('order-send'), result: $('order-result'),
    };
    /** @type {Set<string>} */
    this.chosen = new Set();
    this.objective = null;
    this.oddsKey = '';
    this.oddsFor = '';
    this.enabled = false;
    this.busy = false;
    this.stepKey = '';
    this.fetchOdds = debounce(() => this.loadOdds(), 200);
    const el = this.el;
    el.forList.addEventListener('change', (ev) => {
      const t = /** @type {HTMLInputElement} */ (ev.target);
      if (t.type !== 'checkbox') return;
      if (t.checked) this.chosen.add(t.value); else this.chosen.delete(t.value);
      this.changed();
    });
    el.kind.addEventListener('change', () => this.changed());
    el.to.addEventListener('change', () => this.changed());
    const typed = () => {
      const x = parseFloat(el.x.value), y = parseFloat(el.y.value);
      this.objective = Number.isFinite(x) && Number.isFinite(y) ? [x, y] : null;
      this.showSquare();
      this.hooks.onObjective(this.objective);
    };
    el.x.addEventListener('input', typed);
    el.y.addEventListener('input', typed);
    el.clear.addEventListener('click', () => this.setObjective(null));
    el.form.addEventListener('submit', (ev) => { ev.preventDefault(); this.send(); });
  }

  /**
   * Sets the objective (from a tap on the map).
   * @param {number[]|null} p
   */
  setObjective(p) {
    this.objective = p;
    this.el.x.value = p ? num(p[0]) : '';
    this.el.y.value = p ? num(p[1]) : '';
    this.showSquare();
    this.hooks.onObjective(p);
  }

  showSquare() {
    const m = this.hooks.model();
    const p = this.objective;
    const sq = p && m ? squareOf(m.field, p) : '';
    this.el.square.textContent = p ? `${pt(p)}${sq ? `, square ${sq}` : ''}` : 'No objective: tap the map, or type x and y in inches.';
  }

  /**
   * Chooses one formation as the only recipient.
   * @param {string} id
   */
  preselect(id) {
    this.chosen = new Set([id]);
    this.update();
    this.changed();
    const box = this.el.forList.querySelector(`input[value="${CSS.escape(id)}"]`);
    if (box) box.scrollIntoView({ block: 'nearest' });
  }

  /** Redraws the form from the model (called on every board update). */
  update() {
    const m = this.hooks.model();
    if (!m) return;
    const el = this.el;
    const info = m.info;
    const seat = info.seat;
    const stepKey = `${info.turn}/${info.phase}/${info.step}`;
    if (this.stepKey && this.stepKey !== stepKey) {
      el.result.textContent = '';
      el.result.className = 'result';
    }
    this.stepKey = stepKey;
    const writable = m.writable; // formations this seat may write for, in tree order
    for (const id of [...this.chosen]) if (!writable.some((f) => f.id === id)) this.chosen.delete(id);
    // recipients
    fill(el.forList, ...writable.map((f) => h(`label.for-item.k-${f.kind}`, { dataset: { depth: f.depth } },
      h('input', { type: 'checkbox', value: f.id, checked: this.chosen.has(f.id) }),
      h('span.for-name', { text: m.name(f.id) }), h('span.fm-id', { text: f.id }),
      f.reserve ? h('span.chip.reserve', { text: f.reserve === 'on-board' ? 'reserve' : 'off-board' }) : null)));
    if (!writable.length) el.forList.append(h('p.muted.small', { text: (m.left || []).some((l) => l.left === 0) ? 'No orders left to write this turn.' : 'No formation of yours can take an order in this step.' }));
    // kinds
    const kinds = info.kinds || [];
    const kind = el.kind.value;
    fill(el.kind, ...kinds.map((k) => h('option', { value: k, text: k, selected: k === kind })));
    this.fillTo(m);
    // whether orders can be written now
    let why = '';
    if (seat.role === 'umpire' && !m.acting) why = 'The umpire writes no orders of his own: choose a side under Act as to write its orders.';
    else if (info.over) why = 'The game is over.';
    else if (!(info.verbs || []).includes('write')) why = `Orders are written in the communications phase (write step); now it is the ${info.step} step of the ${info.phase} phase.`;
    this.enabled = !why;
    const side = (m.state.sides || []).find((x) => x.id === (m.acting || seat.side));
    // The orders left this turn, as the server counts them (the board's advice).
    const left = (m.left || [])[0];
    el.status.textContent = why || (left
      ? `Turn ${info.turn}: ${left.left} of ${left.of} ${left.what} (${left.rule}).`
      : `Turn ${info.turn}: ${side ? side.written : 0} order${side && side.written === 1 ? '' : 's'} written this turn (NB-2 limits orders per turn).`);
    if (left && !why) el.status.dataset.left = String(left.left);
    else delete el.status.dataset.left;
    el.status.classList.toggle('off', !this.enabled);
    el.form.classList.toggle('off', !this.enabled);
    for (const c of el.form.querySelectorAll('input, select, button')) {
      if (c !== el.send) c.disabled = !this.enabled;
    }
    this.showSquare();
    this.syncSend();
  }

  fillTo(m) {
    const el = this.el;
    const prev = el.to.value;
    if (this.chosen.size !== 1) { el.toField.hidden = true; fill(el.to); return; }
    const id = [...this.chosen][0];
    const f = m.state.formations.find((x) => x.id === id);
    if (!f) return;
    const opts = [];
    const g = m.state.generals.find((x) => x.id === f.general);
    opts.push(h('option', { value: '', text: `its general${g ? ` (${g.name || g.id})` : ''}` }));
    for (let p = m.state.formations.find((x) => x.id === f.parent); p && p.kind !== 'army'; p = m.state.formations.find((x) => x.id === p.parent)) {
      const pg = m.state.generals.find((x) => x.id === p.general);
      if (pg) opts.push(h('option', { value: pg.id, text: `via ${pg.name || pg.id}, ${m.name(p.id)} (NB-11)`, selected: pg.id === prev }));
    }
    fill(el.to, ...opts);
    el.toField.hidden = opts.length < 2;
  }

  /** The write part of the command as it stands. */
  write() {
    /** @type {any} */
    const w = { for: [...this.chosen], kind: this.el.kind.value };
    if (this.el.to.value && !this.el.toField.hidden) w.to = this.el.to.value;
    return w;
  }

  changed() {
    this.fillTo(this.hooks.model());
    this.el.result.textContent = '';
    this.syncSend();
    if (this.chosen.size && this.el.kind.value && this.enabled) this.fetchOdds();
    else { fill(this.el.odds); this.oddsKey = ''; }
  }

  syncSend() {
    const key = JSON.stringify(this.write());
    this.el.send.disabled = !this.enabled || this.busy || !this.chosen.size || this.oddsFor !== key;
  }

  async loadOdds() {
    const w = this.write();
    const key = JSON.stringify(w);
    if (!w.for.length || !w.kind) return;
    this.oddsKey = key;
    this.el.odds.classList.add('loading');
    try {
      const res = await this.hooks.api.odds(w);
      if (this.oddsKey !== key) return; // the choice changed meanwhile
      this.showOdds(res.forecast || []);
      this.oddsFor = key;
    } catch (err) {
      if (this.oddsKey !== key) return;
      this.oddsFor = '';
      fill(this.el.odds, h('p.error', { text: sentence(err) }));
    } finally {
      this.el.odds.classList.remove('loading');
      this.syncSend();
    }
  }

  /** @param {any[]} forecast the server's, one per recipient */
  showOdds(forecast) {
    const m = this.hooks.model();
    const turn = m.info.turn;
    const blocks = forecast.map((fc) => {
      const g = m.state.generals.find((x) => x.id === fc.general);
      const est = fc.messenger; // when the server says its messenger should bring it (NB-3, NB-4)
      const read = est && est.read; // absent when it is acted on at delivery (NB-9)
      const mods = Object.entries(fc.params || {}).map(([k, v]) => `${k} ${v}`).join(', ');
      const reserve = !fc.odds; // no roll will be made (the server's note says why)
      const who = g ? g.name || g.id : fc.general;
      const head = h('div.fc-head', null,
        h('b', { text: `${m.name(fc.formation)}` }), h('span.fm-id', { text: fc.formation }),
        h('div.muted.small', { text: reserve ? `${who} (${g ? g.quality : '?'})` : `${who} rolls ${fc.odds.dice} on ${fc.table} (${mods})` }));
      if (reserve) {
        return h('div.fc', { dataset: { formation: fc.formation } }, head,
          h('p.small', { text: `${fc.note || 'No roll will be made'}${est ? `; delivery about turn ${est.delivered}` : ''}.` }));
      }
      const outs = [...fc.odds.outcomes].sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
      const bar = h('div.bar', { role: 'img', 'aria-label': outs.map((o) => `${label(o)} ${pct(o.probability)}`).join(', ') },
        ...outs.map((o, i) => {
          const seg = h(`span.seg.d${Math.min(i, 4)}`, { title: `${label(o)}: ${o.exact} (${pct(o.probability)}) — ${o.doc || ''}` });
          seg.style.width = `${(o.probability * 100).toFixed(3)}%`;
          return seg;
        }));
      const rows = outs.map((o) => h('tr', { title: `${o.exact} exactly — ${o.doc || o.result}` },
        h('td', null, h('span.key.d' + Math.min(outs.indexOf(o), 4)), label(o)),
        h('td.num', { text: pct(o.probability) }),
        h('td.num.muted', { text: o.exact }),
        h('td.num', { text: o.value === undefined ? '–' : `turn ${turn + o.value}` }),
        read ? h('td.num.muted', { text: o.value === undefined ? '–' : `turn ${read + o.value}` }) : null));
      return h('div.fc', { dataset: { formation: fc.formation } }, head, bar,
        h('p.summary', { text: outs.map((o) => `${label(o)} ${pct(o.probability)}`).join(' · ') }),
        h('table.odds-table', null,
          h('caption', { text: `The turn it acts on if read now (turn ${turn})${read ? ` or on turn ${read}, when the messenger should bring it` : ''}:` }),
          h('thead', null, h('tr', null, h('th', { text: 'result' }), h('th.num', { text: 'chance' }), h('th.num', { text: 'exact' }),
            h('th.num', { text: `read T${turn}`, title: 'the turn it acts on if it is read this turn' }),
            read ? h('th.num', { text: `read T${read}`, title: 'the turn it acts on if read when the messenger should bring it' }) : null)),
          h('tbody', null, ...rows)),
        est ? h('p.muted.small', { text: `Messenger: ${num(Math.round(est.distance * 10) / 10)}″ to ${m.nameGeneral(est.to)} at ${num(est.speed)}″ a turn; delivered about turn ${est.delivered}${read ? `, read turn ${read}` : ''} (NB-3, NB-4).` }) : null);
    });
    fill(this.el.odds, h('h4', { text: 'Delay of the order (NB-5)' }), ...blocks);
  }

  async send() {
    if (this.el.send.disabled) return;
    const w = this.write();
    if (this.objective) w.objective = this.objective;
    const note = this.el.note.value.trim();
    if (note) w.note = note;
    this.busy = true;
    this.syncSend();
    this.el.result.className = 'result';
    this.el.result.textContent = 'Sending…';
    try {
      const res = await this.hooks.api.command({ write: w });
      const ev = (res.events || []).find((e) => e.type === 'order-written');
      const m = this.hooks.model();
      this.el.result.textContent = ev
        ? `Sent ${ev.data.order.id}${ev.data.messenger ? `: ${ev.data.messenger} rides to ${m.nameGeneral(ev.data.to)}` : ''}.`
        : 'The order was written.';
      this.el.result.classList.add('ok');
      this.chosen.clear();
      this.el.note.value = '';
      this.setObjective(null);
      this.oddsFor = '';
      fill(this.el.odds);
      this.hooks.onSent(res);
    } catch (err) {
      this.el.result.textContent = sentence(err);
      this.el.result.classList.add('error');
      this.hooks.banner(sentence(err));
    } finally {
      this.busy = false;
      this.update();
    }
  }
}

function label(o) {
  if (o.value === undefined) return o.result;
  if (o.value === 0) return 'immediate';
  return `${o.value} turn${o.value === 1 ? '' : 's'}`;
}

function pct(p) {
  const v = p * 100;
  if (v > 0 && v < 0.1) return '<0.1%';
  return `${Math.round(v * 10) / 10}%`;
}
