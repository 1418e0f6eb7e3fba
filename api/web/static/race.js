// The score race of a game under its board: each player's points after every step (public
// ones until the end), the turning point and the biggest swing marked and said in words, with
// buttons that take the replay to either step. Partners, who share their score, share a line.
import { api } from './api.js';
import { h, clear, seatColour } from './dom.js';
import { lines } from './charts.js';
import { t, lang } from './i18n.js';

function styles() {
  for (const [name, href] of [['stats', '/static/stats.css'], ['race', '/static/race.css']]) {
    if (document.querySelector(`link[data-${name}-css]`)) continue;
    document.head.append(h('link', { rel: 'stylesheet', href, [`data-${name}-css`]: '' }));
  }
}

// Lost Cities' partners (seats 0 and 2, 1 and 3) share their side's score: one line, named together
function sides(race, partners) {
  const out = [];
  race.players.forEach((player, seat) => {
    const values = race.steps.map((step) => step.scores[seat]);
    const same = partners && out.find((one) => one.seats[0] % 2 === seat % 2);
    if (same) { same.seats.push(seat); same.names.push(player); } else out.push({ seats: [seat], names: [player], values });
  });
  return out.map((one) => ({ ...one, name: one.names.join(' & '), colour: seatColour(one.seats[0]) }));
}

export function racePanel(gameId, { go }) {
  styles();
  const box = h('div', { class: 'race-box' });
  const panel = h('section', { class: 'panel race', id: 'race', 'aria-labelledby': 'race-h', hidden: true },
    h('h2', { id: 'race-h' }, t('race.heading')), box);
  let fig = null;
  let shownFor = null;

  const goButton = (step) => h('button', { type: 'button', class: 'small secondary race-go', 'data-step': step, onclick: () => go(step) }, t('race.go', { step }));

  async function load(info) {
    const key = `${info.last_seq}:${info.status}`;
    if (key === shownFor) return;
    shownFor = key;
    let race;
    try { race = await api(`/games/${gameId}/race`, { params: { lang } }); } catch { panel.hidden = true; return; }
    clear(box);
    panel.hidden = info.score_only || !race.steps.length;
    if (panel.hidden) return;
    const steps = race.steps.map((s) => s.step);
    const series = sides(race, info.title === 'lost-cities' && race.players.length === 4);
    const scoreAt = (seat, step) => race.steps.find((s) => s.step === step).scores[seat];
    const marks = [];
    if (race.turning_point !== null) {
      const seat = race.winners[0];
      marks.push({ step: race.turning_point, value: scoreAt(seat, race.turning_point), kind: 'turn', aria: `${t('race.turning-label')}: ${race.turning_words}` });
    }
    const swing = race.biggest_swing;
    if (swing) marks.push({ step: swing.step, value: scoreAt(swing.seat, swing.step), kind: 'swing', aria: `${t('race.swing-label')}: ${swing.words}` });
    for (const one of series) {
      const last = steps[steps.length - 1];
      marks.push({ step: last, value: one.values[one.values.length - 1], aria: t('race.point', { player: one.name, step: last, score: one.values[one.values.length - 1] }) });
    }
    const moved = series.some((one) => one.values.some((v) => v !== 0));
    fig = lines(t('race.chart'), steps, series, { marks });
    const said = h('dl', { class: 'race-said' });
    if (race.turning_point !== null) {
      said.append(h('dt', {}, t('race.turning-label')), h('dd', {}, h('span', { class: 'race-turning' }, race.turning_words), ' ', goButton(race.turning_point)));
    } else {
      said.append(h('dt', {}, t('race.turning-label')), h('dd', { class: 'race-turning' }, t(race.public_only ? 'race.in-progress' : 'race.level')));
    }
    if (swing) said.append(h('dt', {}, t('race.swing-label')), h('dd', {}, h('span', { class: 'race-swing' }, swing.words), ' ', goButton(swing.step)));
    box.append(race.public_only ? h('p', { class: 'small muted' }, t('race.public-only')) : '',
      moved ? fig : h('p', { class: 'muted' }, t('race.none')), said);
  }

  return { panel, load, place: (step) => { if (fig) fig.place(step); } };
}
