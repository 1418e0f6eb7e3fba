// The list of games, newest first, with filters.
import { api } from '../api.js';
import { h, clear } from '../dom.js';
import { t, num, dateTime } from '../i18n.js';

export async function show(main, q, { navigate }) {
  const titles = await api('/titles');
  const names = Object.fromEntries(titles.map((d) => [d.id, d.name]));
  const list = h('div', { class: 'game-list', 'aria-live': 'polite' });
  const title = h('select', { id: 'f-title', name: 'title' }, h('option', { value: '' }, t('games.all-titles')),
    titles.map((d) => h('option', { value: d.id }, d.name)));
  const status = h('select', { id: 'f-status', name: 'status' }, h('option', { value: '' }, t('games.any-status')),
    h('option', { value: 'in-progress' }, t('games.in-progress')), h('option', { value: 'ended' }, t('games.ended')));
  const player = h('input', { id: 'f-player', name: 'player', type: 'search', autocomplete: 'off', placeholder: t('games.any') });
  title.value = q.get('title') || ''; status.value = q.get('status') || ''; player.value = q.get('player') || '';
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (ev) => { ev.preventDefault(); load(0); } },
    h('div', { class: 'field' }, h('label', { for: 'f-title' }, t('games.title')), title),
    h('div', { class: 'field' }, h('label', { for: 'f-status' }, t('games.status')), status),
    h('div', { class: 'field' }, h('label', { for: 'f-player' }, t('games.player')), player),
    h('button', { type: 'submit' }, t('games.filter')));
  title.addEventListener('change', () => load(0)); status.addEventListener('change', () => load(0));
  main.append(h('h1', {}, t('games.heading')),
    h('p', {}, h('a', { class: 'button primary', href: '/?page=new' }, t('games.start-new'))), form, list);

  const PAGE = 50;
  async function load(offset = 0) {
    const data = await api('/games', { params: { title: title.value || undefined, status: status.value || undefined, player: player.value || undefined, limit: PAGE, offset } });
    if (offset === 0) clear(list);
    if (!data.games.length && offset === 0) { list.append(h('p', { class: 'muted' }, t('games.none'))); return; }
    const more = list.querySelector('[data-more]');
    if (more) more.remove();
    if (offset === 0) list.append(h('p', { class: 'muted' }, t('games.count', { n: data.total, one: data.total === 1 })), h('ul', { class: 'cards' }));
    list.querySelector('ul.cards').append(...data.games.map((g) => h('li', { 'data-game': g.game_id },
        h('a', { href: `/?game=${g.game_id}` },
          h('span', { class: 'title' }, names[g.title] || g.title),
          h('span', { class: 'players' }, g.players.join(' · ')),
          h('span', { class: `badge ${g.status}` }, g.status === 'ended' ? t('games.badge-ended') : t('games.badge-in-progress')),
          g.parent_id ? h('span', { class: 'muted small' }, t('games.a-fork')) : null,
          g.score_only ? h('span', { class: 'badge', title: t('games.score-only-help') }, t('games.score-only')) : null,
          h('time', { class: 'muted small', datetime: g.created_at }, dateTime(g.created_at))))));
    if (offset + data.games.length < data.total) {
      list.append(h('button', { type: 'button', class: 'secondary', 'data-more': true, onclick: () => load(offset + PAGE) }, t('games.more')));
    }
  }
  await load();
  return {};
}
