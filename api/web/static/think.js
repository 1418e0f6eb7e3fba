// Think time under the score race: per player the median decision and turn, the total and the
// slowest decision in words (a button takes the replay there); at a game's end, a link that
// adds the play to BG Stats in one tap. A game recorded after the fact says it has no timings.
import { api } from './api.js';
import { h, clear } from './dom.js';
import { t, lang } from './i18n.js';

function styles() {
  if (document.querySelector('link[data-think-css]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/static/think.css', 'data-think-css': '' }));
}

export function thinkPanel(gameId, { go }) {
  styles();
  const box = h('div', { class: 'think-box' });
  const push = h('div', { class: 'bgpush', hidden: true });
  const panel = h('section', { class: 'panel think', id: 'think', 'aria-labelledby': 'think-h', hidden: true },
    h('h2', { id: 'think-h' }, t('think.heading')), box, push);
  let shownFor = null;

  async function loadPush(info) {
    clear(push);
    push.hidden = true;
    if (info.status !== 'ended') return;
    let got;
    try { got = await api(`/games/${gameId}/bgstats-play`); } catch { return; }
    if (!got.offered) return;
    push.append(h('h3', {}, t('bgpush.heading')),
      h('p', { class: 'small muted', id: 'bgpush-hint' }, t('bgpush.hint')),
      h('a', { class: 'button primary bgpush-go', id: 'bgpush', href: got.url, rel: 'noopener', 'aria-describedby': 'bgpush-hint' }, t('bgpush.button')));
    push.hidden = false;
  }

  async function load(info) {
    const key = `${info.last_seq}:${info.status}`;
    if (key === shownFor) return;
    shownFor = key;
    let got;
    try { got = await api(`/games/${gameId}/think-time`, { params: { lang } }); } catch { panel.hidden = true; return; }
    clear(box);
    if (got.untimed) {
      box.append(h('p', { class: 'muted think-untimed' }, got.untimed_words));
    } else {
      const rows = got.seats.map((seat) => h('tr', {},
        h('th', { scope: 'row' }, seat.player),
        h('td', {}, String(seat.decisions)),
        h('td', {}, seat.said.median_decision),
        h('td', {}, seat.said.median_turn),
        h('td', {}, seat.said.total)));
      const table = h('div', { class: 'think-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'think-h' }, h('table', { class: 'think-table' },
        h('thead', {}, h('tr', {}, ...['player', 'decisions', 'median-decision', 'median-turn', 'total'].map((k) => h('th', { scope: 'col' }, t(`think.${k}`))))),
        h('tbody', {}, ...rows)));
      const slowest = h('dl', { class: 'think-slowest' });
      for (const seat of got.seats) {
        if (!seat.slowest) continue;
        const s = seat.slowest;
        slowest.append(h('dt', {}, `${t('think.slowest-label')} — ${seat.player}`),
          h('dd', {}, h('span', { class: 'think-slow-words' }, t('think.slowest', { took: s.took, words: s.words, step: s.step, turn: s.turn })), ' ',
            h('button', { type: 'button', class: 'small secondary think-go', 'data-step': s.step, onclick: () => go(s.step) }, t('think.go', { step: s.step }))));
      }
      box.append(got.public_only ? h('p', { class: 'small muted' }, t('think.public-only')) : '', table, slowest);
    }
    panel.hidden = false;
    await loadPush(info);
  }

  return { panel, load };
}
