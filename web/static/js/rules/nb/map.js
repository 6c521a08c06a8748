// NB's table map: the shared map (map.js) with NB's rule of who may be
// dragged. An attached general goes with what he is attached to until he
// detaches (NB-13), and a fallen one stands where he fell until the
// umpire replaces him (NB-15).

import { MapView } from '../../map.js';

export class NbMapView extends MapView {
  /** @param {import('../../map.js').Ref} ref */
  movable(ref) {
    if (!super.movable(ref)) return false;
    const p = this.pieceOf(ref);
    return !(ref.kind === 'general' && (p.attached || p.fate));
  }
}
