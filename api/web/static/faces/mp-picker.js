// Marco Polo's picker and timeline by card faces: chips narrow the moves that show a card (take,
// complete, return a contract) by a good or a reward; a timeline sentence shows the card it names.
import { filterChips, facesInNotation } from './mp-faces.js';

const faceIds = (button) => [...button.querySelectorAll('.mpf-face:not(.mpf-returned)')].map((f) => f.dataset.id);

/** Filter chips above the shown moves, when several of them show cards. */
export function decorateOptions(options, list, view, content) {
  if (!content) return;
  const buttons = [...options.querySelectorAll('.move')].filter((b) => faceIds(b).length);
  if (buttons.length < 4) return;
  const chips = filterChips(content, buttons, faceIds);
  if (chips) options.prepend(chips);
}

/**
 * Small faces of the cards a recorded move names or uses (none for the layout: it names them all):
 * a contract taken by its column and a city card by its space are read off the view before it.
 */
export function timelineFace(move, frame, content, before) {
  if (!content || !move || /^(@\d+\s+)?(setup|deal)\b/.test(move)) return null;
  const words = move.replace(/^@\d+\s+/, '').split(' ');
  const ids = [];
  if (before && words[0] === 'contracts' && words[2]) ids.push(...words[2].split(',').map((c) => (before.display || [])[Number(c) - 1]));
  if (before && words[0] === 'card' && words[1]) ids.push((before.city_cards || {})[words[1]]);
  return facesInNotation(content, [...ids.filter(Boolean), move].join(' '));
}
