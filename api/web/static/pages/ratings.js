// Ratings on the statistics page: a player's rating over their games of each title (a line with
// its uncertainty as a band), a title's leaderboard by rating, and "who is favourite tonight" for
// the players chosen at one table. Ratings are per title (GET /stats/ratings...).
import { api } from '../api.js';
import { h, clear } from '../dom.js';
import { bars, line } from '../charts.js';
import { lang, t as say } from '../i18n.js';

const NUM1 = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'negative' });
const INT = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const PCT = new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const DATE = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });
const when = (iso) => DATE.format(new Date(`${iso}Z`));
const query = (params) => `?${new URLSearchParams(params)}`;

export const rating = (r) => say('stats.rating-value', { mu: NUM1.format(r.mu), sigma: NUM1.format(r.sigma) });

// The player's rating in each title they played (``byTitle``: [{title, name}]), one chart each.
export async function playerRatings(player, byTitle) {
  const histories = await Promise.all(byTitle.map((t) => api(`/stats/ratings/history${query({ title: t.title, name: player })}`)));
  const parts = byTitle.map((t, i) => [t, histories[i].rows]).filter(([, rows]) => rows.length).map(([t, rows]) => {
    const now = rows[rows.length - 1];
    // the line starts where the player started, before their first game of the title
    const start = { mu: rows[0].mu_before, sigma: rows[0].sigma_before };
    const points = [{ value: start.mu, low: start.mu - start.sigma, high: start.mu + start.sigma, aria: say('stats.rating-start', { rating: rating(start) }) },
      ...rows.map((r, n) => ({ value: r.mu, low: r.mu - r.sigma, high: r.mu + r.sigma,
        aria: say('stats.rating-point', { n: INT.format(n + 1), date: when(r.ended_at), rating: rating(r) }) }))];
    return h('div', { class: 'st-sub', 'data-rating-title': t.title }, h('h3', {}, t.name),
      h('p', { 'data-rating-now': t.title }, say('stats.rating-now', { rating: rating(now), games: INT.format(rows.length) })),
      line(say('stats.rating-of-in', { player, title: t.name }), points, { caption: say('stats.rating-caption') }));
  });
  if (!parts.length) return null;
  return h('section', { class: 'panel st-section', 'aria-labelledby': 'ratings-h', 'data-section': 'ratings' },
    h('h2', { id: 'ratings-h' }, say('stats.ratings')), h('p', { class: 'small muted' }, say('stats.rating-about')), ...parts);
}

// The title's leaderboard by rating: the same players as by win %, in the rating's order
// (``table`` is the statistics page's own table, so it scrolls and says so as the others do).
export async function ratingBoard(title, apiFilters, playerHref, table) {
  const params = new URLSearchParams(apiFilters);
  params.set('title', title); params.set('order', 'rating');
  const { rows } = await api(`/stats/leaderboard?${params}`);
  const rated = rows.filter((r) => r.mu !== null).map((r, i) => ({ ...r, position: i + 1 }));
  if (!rated.length) return null;
  const caption = say('stats.leaderboard-by-rating');
  return h('section', { class: 'panel st-section', 'aria-labelledby': 'by-rating-h', 'data-section': 'by-rating' },
    h('h2', { id: 'by-rating-h' }, caption),
    h('p', { class: 'small muted' }, say('stats.rating-order')),
    table('by-rating', caption, rated, [
      { key: 'player', label: say('stats.player'), fmt: 'text', link: (r) => playerHref(r.player), show: (r) => `${INT.format(r.position)}.\u00a0${r.player}` },
      { key: 'rating', label: say('stats.rating'), fmt: 'text', show: rating },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct' },
    ], (r) => r.player));
}

// "Who is favourite tonight": tick the players at the table, then each one's chance to win.
export function favourite(title, players) {
  const answer = h('div', { 'data-favourite': '', 'aria-live': 'polite' });
  const boxes = players.map((name, i) => {
    const id = `fav-${i}`;
    return h('label', { class: 'check st-fav-player', for: id }, h('input', { id, type: 'checkbox', value: name }), name);
  });
  const form = h('form', { class: 'st-fav' },
    h('fieldset', {}, h('legend', {}, say('stats.favourite-lead')), h('div', { class: 'st-fav-players' }, boxes)),
    h('button', { type: 'submit', class: 'primary' }, say('stats.favourite-ask')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const chosen = [...form.querySelectorAll('input:checked')].map((b) => b.value);
    clear(answer);
    if (chosen.length < 2) {
      answer.append(h('p', { class: 'notice', role: 'alert' }, say('stats.favourite-pick-two')));
      return;
    }
    try {
      const params = new URLSearchParams({ title });
      for (const p of chosen) params.append('player', p);
      const { rows } = await api(`/stats/ratings/favourite?${params}`);
      const sorted = [...rows].sort((a, b) => b.win_probability - a.win_probability);
      answer.append(bars(say('stats.favourite'), sorted.map((r) => ({ label: r.player, value: r.win_probability, display: PCT.format(r.win_probability),
        note: r.games ? null : say('stats.newcomer'),
        aria: say('stats.chance-aria', { player: r.player, chance: PCT.format(r.win_probability) }) + (r.games ? '' : ` (${say('stats.newcomer')})`) })),
      { domain: [0, 1], caption: say('stats.favourite-caption') }),
      h('ol', { class: 'st-fav-list', 'data-list': 'favourite' }, sorted.map((r) => h('li', { 'data-player': r.player },
        say('stats.chance-aria', { player: r.player, chance: PCT.format(r.win_probability) }), r.games ? null : ` (${say('stats.newcomer')})`))));
    } catch (err) {
      answer.append(h('p', { class: 'error', role: 'alert' }, err.message));
    }
  });
  return h('section', { class: 'panel st-section', 'aria-labelledby': 'favourite-h', 'data-section': 'favourite' },
    h('h2', { id: 'favourite-h' }, say('stats.favourite')), form, answer);
}
