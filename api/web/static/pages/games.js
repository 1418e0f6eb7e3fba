// The list of games, newest first, with filters.
import { api } from '../api.js';
import { h, clear } from '../dom.js';

export async function show(main, q, { navigate }) {
  const titles = await api('/titles');
  const names = Object.fromEntries(titles.map((t) => [t.id, t.name]));
  const list = h('div', { class: 'game-list', 'aria-live': 'polite' });
  const title = h('select', { id: 'f-title', name: 'title' }, h('option', { value: '' }, 'All titles'),
    titles.map((t) => h('option', { value: t.id }, t.name)));
  const status = h('select', { id: 'f-status', name: 'status' }, h('option', { value: '' }, 'Any status'),
    h('option', { value: 'in-progress' }, 'In progress'), h('option', { value: 'ended' }, 'Ended'));
  const player = h('input', { id: 'f-player', name: 'player', type: 'search', autocomplete: 'off', placeholder: 'any' });
  title.value = q.get('title') || ''; status.value = q.get('status') || ''; player.value = q.get('player') || '';
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (ev) => { ev.preventDefault(); load(0); } },
    h('div', { class: 'field' }, h('label', { for: 'f-title' }, 'Title'), title),
    h('div', { class: 'field' }, h('label', { for: 'f-status' }, 'Status'), status),
    h('div', { class: 'field' }, h('label', { for: 'f-player' }, 'Player'), player),
    h('button', { type: 'submit' }, 'Filter'));
  title.addEventListener('change', () => load(0)); status.addEventListener('change', () => load(0));
  main.append(h('h1', {}, 'Games'),
    h('p', {}, h('a', { class: 'button primary', href: '/?page=new' }, 'Start a new game')), form, list);

  const PAGE = 50;
  async function load(offset = 0) {
    const data = await api('/games', { params: { title: title.value || undefined, status: status.value || undefined, player: player.value || undefined, limit: PAGE, offset } });
    if (offset === 0) clear(list);
    if (!data.games.length && offset === 0) { list.append(h('p', { class: 'muted' }, 'No games yet.')); return; }
    const more = list.querySelector('[data-more]');
    if (more) more.remove();
    if (offset === 0) list.append(h('p', { class: 'muted' }, `${data.total} game${data.total === 1 ? '' : 's'}`), h('ul', { class: 'cards' }));
    list.querySelector('ul.cards').append(...data.games.map((g) => h('li', { 'data-game': g.game_id },
        h('a', { href: `/?game=${g.game_id}` },
          h('span', { class: 'title' }, names[g.title] || g.title),
          h('span', { class: 'players' }, g.players.join(' · ')),
          h('span', { class: `badge ${g.status}` }, g.status === 'ended' ? 'ended' : 'in progress'),
          g.parent_id ? h('span', { class: 'muted small' }, `fork at seq ${g.forked_at}`) : null,
          g.score_only ? h('span', { class: 'badge', title: 'imported from BG Stats by its result alone: no moves' }, 'score only') : null,
          h('time', { class: 'muted small', datetime: g.created_at }, new Date(g.created_at).toLocaleString())))));
    if (offset + data.games.length < data.total) {
      list.append(h('button', { type: 'button', class: 'secondary', 'data-more': true, onclick: () => load(offset + PAGE) }, 'Show more games'));
    }
  }
  await load();
  return {};
}
