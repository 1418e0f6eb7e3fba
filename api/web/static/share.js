// Under an ended game: its result slip (the QR code, the line, a picture, and a form that checks
// any slip against the stored log) and, for the recorder, a read-only share link to it (with the
// embed code and the picture for a chat) that can be withdrawn.
import { api } from './api.js';
import { h, clear, errorBox } from './dom.js';
import { t, lang } from './i18n.js';

export function styles() {
  if (document.querySelector('link[data-share-css]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/static/share.css', 'data-share-css': '' }));
}

const PARTS = ['seal', 'game', 'log', 'head', 'scores'];

// the answer of POST /slips/check, in words: the verdict, then each part by its name (the API's
// own words for a part name the game and its seqs, which the page does not show)
export function verdictBox(answer) {
  const mark = (ok) => (ok === true ? t('share.ok') : ok === false ? t('share.bad') : t('share.unjudged'));
  return h('div', { class: `verdict ${answer.matches ? 'good' : 'bad'}`, role: 'status', id: 'slip-verdict' },
    h('p', { class: 'verdict-words' }, h('strong', {}, answer.words)),
    h('ul', { class: 'verdict-parts' }, answer.parts.filter((p) => PARTS.includes(p.part)).map((p) =>
      h('li', { class: p.ok === true ? 'ok' : p.ok === false ? 'bad' : 'unjudged', 'data-part': p.part },
        h('strong', {}, t(`share.part-${p.part}`)), `: ${mark(p.ok)}`))),
    answer.since !== null ? h('p', { class: 'small' }, t('share.since')) : '');
}

export function checkForm(idPrefix = 'check') {
  const input = h('textarea', { id: `${idPrefix}-slip`, rows: 2, maxlength: 2400, spellcheck: 'false', autocapitalize: 'off' });
  const out = h('div', { class: 'verdict-box', 'aria-live': 'polite' });
  const form = h('form', { class: 'slip-check', id: `${idPrefix}-form` },
    h('h3', {}, t('share.check-h')),
    h('label', { for: `${idPrefix}-slip` }, t('share.check-label')), input,
    h('button', { type: 'submit', class: 'primary' }, t('share.check')), out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(out);
    try {
      out.append(verdictBox(await api('/slips/check', { method: 'POST', body: { slip: input.value }, params: { lang } })));
    } catch (err) { out.append(errorBox(err)); }
  });
  return { form, input };
}

export function endPanels(gameId, { tokens, step }) {
  styles();
  const slipBox = h('section', { class: 'panel slip', id: 'slip', 'aria-labelledby': 'slip-h', hidden: true });
  const shareBox = h('section', { class: 'panel share', id: 'share', 'aria-labelledby': 'share-h', hidden: true });
  let shownFor = null;

  async function loadSlip(info) {
    clear(slipBox);
    const slip = await api(`/games/${gameId}/slip`);
    const check = checkForm('slip-check');
    check.input.value = slip.text;
    slipBox.append(
      h('h2', { id: 'slip-h' }, t('share.slip-h')),
      h('p', { class: 'small' }, t('share.slip-intro')),
      h('div', { class: 'slip-body' },
        h('img', { class: 'slip-qr', id: 'slip-qr', src: `/games/${gameId}/slip?format=svg&v=${info.last_seq}`, alt: t('share.slip-qr'), width: 180, height: 180 })),
      h('p', {}, h('a', { class: 'button-link', href: `/games/${gameId}/slip?format=png&lang=${lang}`, download: 'slip.png', id: 'slip-png' }, t('share.slip-png'))),
      check.form);
  }

  function renderShare() {
    clear(shareBox);
    shareBox.append(h('h2', { id: 'share-h' }, t('share.share-h')), h('p', { class: 'small' }, t('share.share-intro')));
    const write = tokens().write;
    if (!write) { shareBox.append(h('p', { class: 'muted', id: 'share-owner-only' }, t('share.owner-only'))); return; }
    const atStep = h('input', { type: 'checkbox', id: 'share-at' });
    const result = h('div', { class: 'share-made', 'aria-live': 'polite' });
    const label = h('label', { for: 'share-at', class: 'check-row' }, atStep, ' ', t('share.at-step', { step: step() }));
    const make = h('button', { type: 'button', class: 'primary', id: 'share-make', onclick: async () => {
      clear(result);
      try {
        const made = await api(`/games/${gameId}/shares`, { method: 'POST', token: write, body: { at: atStep.checked ? step() : null } });
        result.append(madeBox(made, write));
      } catch (err) { result.append(errorBox(err)); }
    } }, t('share.make'));
    shareBox.append(label, make, result);
  }

  function madeBox(made, write) {
    const url = new URL(made.link, location.origin).href;
    const embed = new URL(made.embed, location.origin).href;
    const code = `<iframe src="${embed}" title="${t('share.frame-title', { title: document.title.split(':')[0] })}" width="100%" height="640" style="border:0"></iframe>`;
    const box = h('div', { class: 'share-links' },
      h('p', {}, t('share.made')),
      h('label', { for: 'share-link' }, t('share.link-label')),
      h('input', { id: 'share-link', type: 'url', readonly: true, value: url }),
      h('label', { for: 'share-embed' }, t('share.embed-label')),
      h('textarea', { id: 'share-embed', rows: 3, readonly: true }, code),
      h('p', { class: 'share-actions' },
        h('a', { class: 'button-link', id: 'share-open', href: url }, t('share.open-full')),
        h('a', { class: 'button-link', id: 'share-png', href: `${made.picture}?format=png&lang=${lang}` }, t('share.picture-png')),
        h('a', { class: 'button-link', href: `${made.picture}?format=svg&lang=${lang}` }, t('share.picture-svg'))));
    const withdraw = h('button', { type: 'button', class: 'secondary', id: 'share-withdraw', onclick: async () => {
      try {
        await api(`/games/${gameId}/shares/${made.share}`, { method: 'DELETE', token: write });
        clear(box).append(h('p', { role: 'status', id: 'share-withdrawn' }, t('share.withdrawn-done')));
      } catch (err) { box.append(errorBox(err)); }
    } }, t('share.withdraw'));
    box.append(withdraw);
    return box;
  }

  async function load(info) {
    const ended = info.status === 'ended' && !info.score_only;
    slipBox.hidden = shareBox.hidden = info.status !== 'ended';
    if (info.status !== 'ended') { shownFor = null; return; }
    const key = `${info.last_seq}`;
    if (key === shownFor) return;
    shownFor = key;
    renderShare();
    try { await loadSlip(info); } catch (err) { clear(slipBox).append(errorBox(err)); }
    return ended;
  }

  return { panels: [slipBox, shareBox], load, step: () => { const l = shareBox.querySelector('label[for="share-at"]'); if (l) l.lastChild.textContent = t('share.at-step', { step: step() }); } };
}
