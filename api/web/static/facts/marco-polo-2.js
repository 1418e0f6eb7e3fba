// Marco Polo II at the table: the generic forms, with the round's roll and single dice on the dice pad.
import { clear } from '../dom.js';
import * as generic from './generic.js';
import { dicePad } from '../dicepad.js';

export async function render(box, ctx) {
  if (ctx.chance.kind !== 'dice') return generic.render(box, ctx);
  clear(box);
  return dicePad(box, ctx, { title: ctx.chance.count === 1 ? 'The die shows' : 'The roll' });
}
