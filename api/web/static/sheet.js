// The recording panel as a bottom sheet on a phone: the board stays above it, in view, while the
// picker and the dice pad are tapped. Its handle collapses it (a tap) or sizes it (a drag); on a wide
// screen the sheet is just the panel in the side column (layout.css).
import { h } from './dom.js';
import { t } from './i18n.js';

const MIN = 56; // the handle alone
const MOST = 1 / 3; // of the screen's height: the board keeps the rest (layout.css: 33dvh)

// Wraps ``panel`` (the recorder) in the sheet; ``board`` is kept in view above it.
export function sheetOf(panel, board) {
  const label = h('span', { class: 'sheet-label' }, t('sheet.hide'));
  const handle = h('button', { type: 'button', class: 'sheet-handle', id: 'sheet-handle', 'aria-expanded': 'true', 'aria-controls': panel.id },
    h('span', { class: 'sheet-grip', 'aria-hidden': 'true' }), label);
  const sheet = h('div', { class: 'sheet open', id: 'sheet' }, handle, panel);
  const phone = () => getComputedStyle(sheet).position === 'fixed';
  const root = document.documentElement;
  const measure = () => root.style.setProperty('--sheet-h', `${phone() ? Math.ceil(sheet.getBoundingClientRect().height) : 0}px`);
  new ResizeObserver(measure).observe(sheet);
  const setOpen = (open) => {
    sheet.classList.toggle('open', open);
    handle.setAttribute('aria-expanded', String(open));
    label.textContent = open ? t('sheet.hide') : t('sheet.show');
    if (open) sheet.style.removeProperty('--sheet-max');
    requestAnimationFrame(measure);
  };

  // a tap toggles; a drag sizes the sheet to where the finger stops (low enough: collapsed)
  let drag = null;
  handle.addEventListener('pointerdown', (ev) => {
    if (!phone()) return;
    drag = { y: ev.clientY, moved: false, id: ev.pointerId };
    handle.setPointerCapture(ev.pointerId); // a quick drag leaves the handle at once
  });
  handle.addEventListener('pointermove', (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.moved && Math.abs(ev.clientY - drag.y) < 6) return;
    drag.moved = true;
    const height = Math.max(MIN, Math.min(window.innerHeight * MOST, window.innerHeight - ev.clientY + MIN / 2));
    if (!sheet.classList.contains('open')) setOpen(true);
    sheet.style.setProperty('--sheet-max', `${height}px`);
  });
  const end = () => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    if (moved) {
      const height = sheet.getBoundingClientRect().height;
      if (height < MIN * 2) setOpen(false); else measure();
      handle.dataset.dragged = '1'; // the click that ends a drag is not a toggle
    }
  };
  handle.addEventListener('pointerup', end);
  handle.addEventListener('pointercancel', end);
  handle.addEventListener('click', () => {
    if (handle.dataset.dragged) { delete handle.dataset.dragged; return; }
    setOpen(!sheet.classList.contains('open'));
  });

  // a kind of move chosen: its moves fill the sheet, the kinds kept at its top to switch
  panel.addEventListener('click', (ev) => {
    const kind = ev.target.closest && ev.target.closest('.picker .kind');
    if (!kind || !phone()) return;
    // a narrowing chip: its bar to the top, so the moves it opens lie right under it
    const row = kind.closest('.kinds.sub') || kind.closest('.picker').querySelector('.kinds');
    panel.scrollTop += row.getBoundingClientRect().top - panel.getBoundingClientRect().top - 4;
    // and what the tap opened in view under it: the narrowing chips, else the first moves
    const area = kind.closest('.picker').querySelector('.options-area');
    const sub = !kind.closest('.kinds.sub') && area && area.querySelector(':scope > .kinds.sub .kind');
    sheet.reveal(sub || (area && area.querySelector('.moves .move')));
  });

  sheet.phone = phone;
  // On a phone, scrolls the sheet's own list (never the page: the board stays where it is) so that ``el`` lies
  // in it: ``start`` puts el's top at the list's top, else the least scroll that shows it (nearest).
  sheet.reveal = (el, { start = false } = {}) => {
    if (!el || !panel.contains(el) || !phone()) return;
    const box = panel.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    // the dice pad's keys stick to the list's bottom: what they cover is not in view
    const keys = panel.querySelector('.dice-pad .pad-keys');
    const bottom = keys && !keys.contains(el) && !el.contains(keys) ? Math.min(box.bottom, keys.getBoundingClientRect().top) : box.bottom;
    if (start || r.top < box.top || r.height > bottom - box.top) panel.scrollTop += r.top - box.top - 4;
    else if (r.bottom > bottom) panel.scrollTop += r.bottom - bottom + 4;
  };

  // a part of the panel asks to be seen (the dice pad: the seat whose dice come next)
  panel.addEventListener('sheet-reveal', (ev) => sheet.reveal(ev.target));

  // on a phone, recording starts with the board at the top of the screen, the sheet under it
  let placed = false;
  sheet.placeBoard = () => {
    const box = board.closest('.board');
    if (box && !box.hasAttribute('tabindex')) box.tabIndex = 0; // it scrolls inside on a phone: keys reach it
    if (placed || !phone() || !sheet.querySelector('.recording')) return;
    placed = true;
    const top = board.getBoundingClientRect().top + window.scrollY;
    if (window.scrollY < top) window.scrollTo({ top, behavior: 'instant' });
  };
  return sheet;
}
