// Marco Polo II at the table: the round's roll and single dice on the dice pad; with a pack that
// cannot lay out the game by itself, the layout on the board, a round's tiles and a refilled
// contract by their pictures (a component the pack lacks described with its form), and a travel
// along a route the map does not show yet, drawn on the board.
import { clear } from '../dom.js';
import * as generic from './generic.js';
import { dicePad } from '../dicepad.js';
import { formsReady, askComponent, kindName } from '../faces/mp2-table.js';
import { t } from '../i18n.js';
import { setupOnBoard, roundOnBoard, refillOnBoard, newRouteTravel, goalsShown } from '../faces/mp2-setup.js';

export { askComponent };
export const componentName = kindName;

export async function render(box, ctx) {
  if (ctx.chance.kind !== 'dice') {
    if (ctx.content) { const shown = await always(box, ctx); if (shown) return true; }
    return generic.render(box, ctx);
  }
  clear(box);
  return dicePad(box, ctx, { title: ctx.chance.count === 1 ? t('mpfacts.die-shows') : t('dice.the-roll') });

}

// the facts a table reports when the pack cannot draw them (no chance to compose): asked here
export async function always(box, ctx) {
  const { view, content } = ctx;
  if (!content || (ctx.info && ctx.info.digital)) return false; // a digital game: the server lays it out
  await formsReady();
  clear(box);
  if (view.phase === 'setup') return setupOnBoard(box, ctx);
  if (view.phase === 'round') return roundOnBoard(box, ctx);
  if (view.phase === 'reveal') return goalsShown(box, ctx);
  const pending = (view.pending || [])[0];
  if (view.phase === 'play' && pending && pending[0] === 'refill') return refillOnBoard(box, ctx);
  if (view.phase === 'play' && !pending && view.to_move !== null) return newRouteTravel(box, ctx);
  return false;
}
