// Seasons on the statistics page: the list of seasons, and one season's standings per title
// (GET /seasons, GET /seasons/{id}): position, rating over the season's games alone, games, wins,
// points and the title's own tie-break. Only finished games count, so nothing here is secret.
import { api } from '../api.js';
import { h } from '../dom.js';
import { lang, t as say, has } from '../i18n.js';
import { rating } from './ratings.js';

const INT = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const DAY = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
const day = (iso) => DAY.format(new Date(`${iso}T00:00:00Z`));
const span = (s) => say('stats.season-days', { starts: day(s.starts), ends: day(s.ends) });

// ``table``, ``crumbs`` and ``href`` are the statistics page's own, so the views look and scroll alike
export async function seasonsView(out, q, { table, crumbs, href }) {
  const wanted = q.get('season');
  if (!wanted) {
    const { seasons } = await api('/seasons');
    out.append(crumbs([[say('stats.group'), href('dashboard')], [say('stats.seasons')]]), h('h1', {}, say('stats.seasons')));
    if (!seasons.length) {
      out.append(h('p', { class: 'notice', id: 'seasons-none' }, say('stats.seasons-none')));
      return;
    }
    out.append(h('ul', { class: 'st-players st-seasons', 'data-list': 'seasons' }, seasons.map((s) => h('li', { 'data-season': s.name },
      h('a', { class: 'st-more', href: href('seasons', { season: s.season_id }) }, s.name), ' ',
      h('span', { class: 'muted' }, `${span(s)} · ${s.title_names.join(say('stats.comma'))}`)))));
    return;
  }
  const s = await api(`/seasons/${encodeURIComponent(wanted)}`);
  out.append(crumbs([[say('stats.group'), href('dashboard')], [say('stats.seasons'), href('seasons')], [s.name]]), h('h1', {}, s.name));
  out.append(h('p', { 'data-season-days': '' }, span(s)),
    h('p', { class: 'small muted' }, say('stats.season-members', { members: s.members.join(say('stats.comma')) })),
    h('p', { class: 'small muted' }, say('stats.season-order')),
    h('p', {}, h('a', { class: 'st-more', href: `/seasons/${encodeURIComponent(s.season_id)}.csv`, download: '' }, say('stats.season-csv'))));
  for (const t of s.standings) {
    const tie = t.rows.some((r) => r.tiebreak !== null);
    // the columns the order follows first, so a phone shows them without a swipe
    const cols = [
      { key: 'player', label: say('stats.player'), fmt: 'text', show: (r) => `${INT.format(r.position)}.\u00a0${r.player}` },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'points', label: say('stats.points'), fmt: 'int' },
    ];
    if (tie) cols.push({ key: 'tiebreak', label: has(`stats.tiebreak-${t.title}`) ? say(`stats.tiebreak-${t.title}`) : say('stats.tiebreak'), fmt: 'int' });
    cols.push({ key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'rating', label: say('stats.rating'), fmt: 'text', show: (r) => (r.mu === null ? '–' : rating(r).replace(/ /g, '\u00a0')) });
    const id = `season-${t.title}`;
    out.append(h('section', { class: 'panel st-section', 'aria-labelledby': `${id}-h`, 'data-section': id },
      h('h2', { id: `${id}-h` }, t.title_name),
      t.rows.some((r) => r.games) ? null : h('p', { class: 'muted' }, say('stats.season-no-games')),
      table(id, say('stats.season-standings-in', { title: t.title_name }), t.rows, cols, (r) => r.player)));
  }
}
