// The event log of the seat's view: newest first, grouped by turn, one
// line per event as the server sums it up, with the details of each roll.

import { h } from './dom.js';
import { rollParts } from './roll.js';

/**
 * @typedef {{colour:(side:string)=>string, side:(id:string)=>string}} LogContext
 */

export class EventLog {
  /**
   * @param {HTMLOListElement} ol the list (#log)
   * @param {HTMLElement} badge the count of unseen entries on the tab
   */
  constructor(ol, badge) {
    this.ol = ol;
    this.badge = badge;
    /** @type {Set<number>} */
    this.seen = new Set();
    this.unseen = 0;
    this.visible = false;
  }

  /**
   * Adds events (in the order of the log); those already shown are skipped.
   * @param {any[]} events
   * @param {LogContext} ctx
   * @returns {any[]} the events that were new
   */
  add(events, ctx) {
    const fresh = [];
    for (const e of events) {
      if (this.seen.has(e.seq)) continue;
      this.seen.add(e.seq);
      fresh.push(e);
      this.ol.prepend(this.entry(e, ctx));
    }
    if (fresh.length && !this.visible) {
      this.unseen += fresh.filter((e) => e.type !== 'step-begun').length;
      this.showBadge();
    }
    return fresh;
  }

  /**
   * Drops the entries numbered past version: the stream says the seat's
   * events end there.
   * @param {number} version
   */
  drop(version) {
    for (const li of [...this.ol.querySelectorAll('li[data-seq]')]) {
      const seq = Number(/** @type {HTMLElement} */ (li).dataset.seq);
      if (seq > version) {
        li.remove();
        this.seen.delete(seq);
      }
    }
    const top = /** @type {HTMLElement|null} */ (this.ol.firstElementChild);
    if (top) top.classList.add('turn-start');
  }

  /** @param {boolean} v whether the log's tab is showing */
  setVisible(v) {
    this.visible = v;
    if (v) { this.unseen = 0; this.showBadge(); }
  }

  showBadge() {
    this.badge.hidden = this.unseen === 0;
    this.badge.textContent = this.unseen > 99 ? '99+' : String(this.unseen);
  }

  /**
   * One entry; it heads its turn's group while it is the newest of it.
   * @param {any} e @param {LogContext} ctx
   */
  entry(e, ctx) {
    const top = /** @type {HTMLElement|null} */ (this.ol.firstElementChild);
    const head = !top || top.dataset.turn !== String(e.turn);
    if (top && !head) top.classList.remove('turn-start');
    const cls = ['ev', `type-${e.type}`];
    if (head) cls.push('turn-start');
    if (e.type === 'step-begun' || e.type === 'side-ready') cls.push('minor');
    if (e.see && e.see !== 'all') cls.push('secret');
    const where = e.phase === 'setup' ? 'setup' : `${e.phase}${e.step ? ` · ${e.step}` : ''}`;
    const li = h(`li.${cls.join('.')}`, {
      dataset: { seq: e.seq, type: e.type, turn: e.turn, side: e.side || undefined, label: e.turn > 0 ? `Turn ${e.turn}` : 'Before the game' },
    },
      h('div.ev-meta', null,
        h('span.ev-where', { text: where }),
        e.side ? h(`span.chip.side.c-${ctx.colour(e.side)}`, { text: ctx.side(e.side) }) : null,
        e.see && e.see !== 'all' ? h('span.chip.secret', { text: e.see === 'umpire' ? 'umpire only' : 'secret', title: e.see === 'umpire' ? 'Only the umpire sees this' : `Only ${ctx.side(e.see)} (and the umpire) see this` }) : null,
        h('span.ev-seq', { text: `#${e.seq}` })),
      h('div.ev-text', { text: e.summary || e.type }),
      ...(e.rolls || []).map(rollDetails));
    return li;
  }
}

/** @param {any} r */
function rollDetails(r) {
  const parts = rollParts(r);
  return h('dl.roll', { title: `table ${r.table}` },
    ...parts.flatMap((p, i) => [h(`dt${i === parts.length - 1 ? '.res' : ''}`, { text: p.label }), h(`dd${i === parts.length - 1 ? '.res' : ''}`, { text: p.value })]));
}
