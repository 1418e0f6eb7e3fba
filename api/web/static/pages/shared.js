// A shared game (?share=TOKEN, and the embed frame): the ended game's final scores and its replay,
// read-only, with no token. A withdrawn link, an unknown one or a game being played again shows
// nothing of the game, only why, in words.
import { api } from '../api.js';
import { h, clear, errorBox, seatColour } from '../dom.js';
import { drawerFor } from '../draw/index.js';
import * as generic from '../draw/generic.js';
import { whole } from '../frames.js';
import { t, num, lang, date, languageSwitch } from '../i18n.js';
import { styles } from '../share.js';

const REFUSED = { 'share-withdrawn': 'share.withdrawn', 'unknown-share': 'share.unknown', 'shared-game-in-progress': 'share.in-progress' };

export async function show(main, q, { embed = false } = {}) {
  styles();
  const token = q.get('share') || '';
  main.classList.add('shared');
  let data;
  try {
    data = await api(`/shared/${encodeURIComponent(token)}`, { params: { lang } });
  } catch (err) {
    const key = REFUSED[err.code];
    main.append(key
      ? h('div', { class: 'panel shared-refused', role: 'alert', id: 'shared-refused', 'data-why': err.code },
        h('h1', {}, t('share.heading')), h('p', {}, t(key)))
      : errorBox(err));
    if (embed) main.append(languageSwitch());
    return {};
  }
  const frames = whole(data.frames);
  const mod = await drawerFor(data.title).catch(() => generic);
  document.title = `${data.title_name}: ${data.players.join(', ')} · tabletape`;
  let pos = data.at;

  const { scores, ranks, winners } = data.outcome;
  const ranking = h('ol', { class: 'ranking', id: 'shared-ranking' }, data.players
    .map((p, s) => ({ p, s, score: scores.length ? scores[s] : null, rank: ranks[s] }))
    .sort((a, b) => a.rank - b.rank)
    .map((r) => h('li', { 'data-seat': r.s, class: winners.includes(r.s) ? 'winner' : '' },
      h('span', { class: 'player', style: `--seat:${seatColour(r.s)}` }, r.p), r.score === null ? '' : ` ${num(r.score)}`,
      winners.includes(r.s) ? h('span', { class: 'badge' }, ` ${t('share.winner')}`) : '')));

  const drawing = h('div', { class: 'drawing', id: 'drawing' });
  const stepLabel = h('p', { class: 'step-label', id: 'step-label', 'aria-live': 'polite' });
  const status = h('p', { class: 'status-line', id: 'status-line' });
  const slider = h('input', { type: 'range', id: 'scrub', min: 0, max: frames.length - 1, step: 1, value: pos, 'aria-describedby': 'step-label' });
  const button = (text, id, to) => h('button', { type: 'button', class: 'icon', id, onclick: () => go(to()) }, text);
  const first = button(t('game.first'), 'step-first', () => 0);
  const back = button(t('game.back'), 'step-back', () => pos - 1);
  const fwd = button(t('game.next'), 'step-forward', () => pos + 1);
  const last = button(t('game.last'), 'step-last', () => frames.length - 1);
  const picture = `/shared/${encodeURIComponent(token)}/picture`;
  const open = h('a', { class: 'button-link', id: 'shared-open', href: `/?share=${encodeURIComponent(token)}`, target: embed ? '_blank' : null, rel: embed ? 'noopener' : null }, t('share.open-full'));

  main.append(
    h('div', { class: 'shared-head' },
      h('h1', { class: 'game-title' }, data.title_name),
      h('p', { class: 'game-meta' }, data.players.join(' · '), ' — ', t('share.ended-on', { date: date(`${data.ended_on}T12:00:00Z`) }))),
    h('section', { class: 'panel score', 'aria-labelledby': 'final-h' }, h('h2', { id: 'final-h' }, t('share.final')), ranking),
    h('section', { class: 'panel timeline', 'aria-labelledby': 'replay-h' },
      h('h2', { id: 'replay-h' }, t('share.replay')),
      h('label', { for: 'scrub', class: 'visually-hidden' }, t('game.step-of-game')), slider,
      h('div', { class: 'steps' }, first, back, fwd, last), stepLabel, status),
    h('section', { class: 'board', 'aria-label': t('game.the-table') }, drawing),
    h('p', { class: 'share-actions' }, embed ? open : '',
      h('a', { class: 'button-link', id: 'shared-png', href: `${picture}?format=png&lang=${lang}` }, t('share.picture-png')),
      h('a', { class: 'button-link', href: `${picture}?format=svg&lang=${lang}` }, t('share.picture-svg'))),
    embed ? languageSwitch() : '');

  function go(to) {
    pos = Math.max(0, Math.min(frames.length - 1, to));
    const f = frames[pos];
    slider.value = String(pos);
    const text = t('game.step-of', { step: pos, steps: frames.length - 1, text: f.text || '' });
    stepLabel.textContent = text;
    slider.setAttribute('aria-valuetext', text);
    status.textContent = f.status || '';
    first.disabled = back.disabled = pos === 0;
    fwd.disabled = last.disabled = pos === frames.length - 1;
    drawing.dataset.index = String(pos);
    const ctx = { players: data.players, content: data.content, frame: f, info: { title: data.title, players: data.players, status: 'ended' }, eyes: 'full' };
    try { mod.draw(drawing, f.view, ctx); } catch (err) { console.error(err); generic.draw(drawing, f.view, ctx); }
    if (embed) open.href = `/?share=${encodeURIComponent(token)}&at=${pos}`;
  }
  slider.addEventListener('input', () => go(Number(slider.value)));
  const asked = q.get('at');
  go(asked !== null && /^\d+$/.test(asked) ? Number(asked) : pos);
  return { leave() { main.classList.remove('shared'); } };
}
