// What lies on a city of a board game's map, drawn as the faces printed on it: small beside the
// city, large in a dialog when the city is tapped (Marco Polo, Marco Polo II).
import { h, s, clear } from '../dom.js';
import { zoomable } from '../mapzoom.js';
import { t } from '../i18n.js';

/** The map fits the width; zoom and pan reach every place on it; its words stay readable. */
export function mapWrap(svg, key) {
  return zoomable(h('div', { class: 'mp-map-wrap', tabindex: 0, role: 'region', 'aria-label': t('mapfaces.map') }, svg), svg, key, { labels: true });
}

/** The small faces (elements) beside a city, sized for the drawing's scale (the map zooms). */
export function tagFaces(faces, x, y, width, height, how, loc) {
  return s('foreignObject', { x, y, width, height, class: 'mp-tag-fo', 'data-tag-of': loc },
    h('div', { class: `mp-tag-faces ${how}`, 'aria-hidden': 'true' }, faces));
}

/** Makes a city's group a button (tap, Enter or Space) that calls ``open``. */
export function tappable(g, open, name = null) {
  const title = g.querySelector(':scope > title');
  if (title) title.remove(); // its shown name is its accessible name; a title would replace it
  // a place drawn without its name as text (a pack whose names are its codes) still needs one
  if (name) g.setAttribute('aria-label', t('mapfaces.what-lies', { name }));
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  g.setAttribute('aria-haspopup', 'dialog'); // its name is what it shows (code and city); it opens the faces
  g.classList.add('mp-tappable');
  // a finger's reach around the city: 150 map units are >= 44 px on a 375-px phone's whole map
  g.prepend(s('rect', { x: -75, y: -75, width: 150, height: 150, class: 'mp-hit' }));
  g.addEventListener('click', open);
  g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(); } });
}

/** One dialog per page: the faces (elements) of what lies on a city, large, with a close button. */
export function showFaces(from, name, faces) {
  let dialog = document.getElementById('mp-face-dialog');
  if (!dialog) {
    dialog = h('dialog', { id: 'mp-face-dialog', class: 'mp-face-dialog', 'aria-labelledby': 'mp-face-h' },
      h('h3', { id: 'mp-face-h' }), h('div', { class: 'mp-face-body' }),
      h('button', { type: 'button', class: 'mp-face-close', onclick: () => dialog.close() }, t('mapfaces.close')));
    document.body.append(dialog);
  }
  dialog.querySelector('#mp-face-h').textContent = t('mapfaces.on', { name });

  clear(dialog.querySelector('.mp-face-body')).append(...faces);
  dialog.onclose = () => { if (from.isConnected) from.focus(); };
  dialog.showModal();
  dialog.querySelector('.mp-face-close').focus();
}
