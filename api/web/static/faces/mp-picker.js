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

/** Small faces of the cards a recorded move names (none for the layout: it names them all). */
export function timelineFace(move, frame, content) {
  if (!content || !move || /^(@\d+\s+)?(setup|deal)\b/.test(move)) return null;
  return facesInNotation(content, move);
}
