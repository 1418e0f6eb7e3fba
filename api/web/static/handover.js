// Handing a game over to another device: links, and QR codes of them, that carry a token in the
// URL's fragment (after '#'), which a browser never sends to a server, so no request line or log
// holds it; and new tokens when a device is lost (the old links stop working).
import { api, tokensOf, saveTokens } from './api.js';
import { h, clear, errorBox } from './dom.js';
import { t } from './i18n.js';
import qrcode from './vendor/qrcode-generator/qrcode.mjs';

const base = (id) => `${location.origin}/?game=${encodeURIComponent(id)}`;

// Recording goes with every seat's token, as the device that started the game holds them: the
// new recorder's timeline names each move as the old one's did.
export const recordingLink = (id, tokens) =>
  `${base(id)}#write=${tokens.write}${(tokens.seats || []).some(Boolean) ? `&seats=${tokens.seats.map((t) => t || '').join(',')}` : ''}`;
export const seatLink = (id, seat, token) => `${base(id)}#seat=${seat}&token=${token}`;

// On opening a game: keep the tokens of a hand-over link on this device, once the server says
// they still open it, and take them out of the address bar (and so out of the history, and of
// any link copied from it). Returns the eyes to show first and a notice (or null).
export async function takeHandover(id) {
  const hash = location.hash.slice(1);
  if (!hash) return { eyes: null, notice: null };
  const f = new URLSearchParams(hash);
  history.replaceState(history.state, '', location.pathname + location.search);
  const write = f.get('write');
  const seat = f.has('seat') ? Number(f.get('seat')) : null;
  const token = f.get('token');
  try {
    if (write) {
      await api(`/games/${id}/legal-moves`, { token: write });
      const seats = (f.get('seats') || '').split(',').map((x) => x || null);
      saveTokens(id, { write, ...(seats.some(Boolean) ? { seats } : {}) });
      return { eyes: null, notice: notice(t('handover.now-records'), 'status') };
    }
    if (seat !== null && Number.isInteger(seat) && seat >= 0 && token) {
      await api(`/games/${id}/state`, { token, params: { seat } });
      const seats = [...(tokensOf(id).seats || [])];
      seats[seat] = token;
      saveTokens(id, { seats });
      return { eyes: `seat-${seat}`, notice: null };
    }
  } catch (err) {
    if (err.status === 401 || err.status === 403) {
      return { eyes: null, notice: notice(t('handover.stale'), 'alert') };
    }
    if (err.status === 0) return { eyes: null, notice: notice(t('handover.unchecked'), 'alert') };
    return { eyes: null, notice: h('div', { class: 'handover-notice', id: 'handover-notice' }, errorBox(err, { lead: t('handover.not-taken') })) };
  }
  return { eyes: null, notice: null };
}

// A stored token the server no longer takes, in the table's words (the recorder issued new ones).
export function staleToken(err) {
  if (!err || err.code !== 'token-wrong') return err;
  return { ...err, code: err.code, body: err.body, message: t('handover.token-replaced') };
}

function notice(text, role) {
  return h('p', { class: `notice handover-notice ${role === 'alert' ? 'bad' : ''}`, id: 'handover-notice', role }, text);
}

// A QR code as SVG: dark squares on white with the quiet zone the standard asks (4 modules).
export function qrSvg(text, label) {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  let d = '';
  for (let r = 0; r < n; r += 1) for (let c = 0; c < n; c += 1) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const size = n + 8;
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.innerHTML = `<rect width="${size}" height="${size}" fill="#fff"/><path d="${d}" fill="#000"/>`;
  return svg;
}

// The "Hand over" button of the recording panel and the dialog it opens. ``game`` gives
// {id, players, tokens()} and ``onReissued()`` is told when this device holds new tokens.
export function handoverButton(game, onReissued) {
  const dialog = h('dialog', { class: 'handover-dialog', id: 'handover', 'aria-labelledby': 'handover-h' });
  let chosen = 'record';
  const open = () => {
    if (!dialog.isConnected) document.getElementById('main').append(dialog);
    chosen = 'record';
    render();
    dialog.showModal();
  };
  const close = () => dialog.close();
  dialog.addEventListener('close', () => dialog.remove());

  function render(said = null) {
    const tokens = game.tokens();
    const choices = [['record', t('handover.recording')]].concat(game.players.map((p, s) => [`seat-${s}`, p]).filter((_, s) => (tokens.seats || [])[s]));
    const bar = h('div', { class: 'kinds', role: 'group', 'aria-label': t('handover.what') },
      choices.map(([k, label]) => h('button', { type: 'button', class: 'kind', 'data-handover': k, 'aria-pressed': String(k === chosen), onclick: () => { chosen = k; render(); } }, label)));
    clear(dialog).append(
      h('h2', { id: 'handover-h' }, t('handover.heading')),
      h('p', {}, t('handover.scan')),
      said || '', bar, chosenPart(tokens),
      h('details', { class: 'reissue' }, h('summary', {}, t('handover.lost')),
        h('p', {}, t('handover.new-tokens-help')),
        h('button', { type: 'button', class: 'secondary danger', id: 'reissue', onclick: confirmReissue }, t('handover.issue-ellipsis'))),
      h('div', { class: 'row' }, h('button', { type: 'button', class: 'secondary', id: 'handover-close', onclick: close }, t('handover.close'))));
  }

  function chosenPart(tokens) {
    const record = chosen === 'record';
    const seat = record ? null : Number(chosen.slice(5));
    const player = record ? null : game.players[seat];
    const link = record ? recordingLink(game.id, tokens) : seatLink(game.id, seat, tokens.seats[seat]);
    const what = record ? t('handover.what-record') : t('handover.what-seat', { player });
    const field = h('input', { type: 'text', readonly: true, id: 'handover-link', value: link, 'aria-label': t('handover.link-to', { what }), onfocus: (ev) => ev.target.select() });
    const copied = h('span', { class: 'small muted', role: 'status' });
    const copy = h('button', { type: 'button', class: 'secondary', id: 'handover-copy', onclick: async () => {
      try { await navigator.clipboard.writeText(link); copied.textContent = t('handover.copied'); } catch { field.select(); copied.textContent = t('handover.selected'); }
    } }, t('handover.copy'));
    const share = navigator.share ? h('button', { type: 'button', class: 'secondary', onclick: () => navigator.share({ title: 'tabletape', url: link }).catch(() => {}) }, t('handover.share')) : null;
    return h('section', { class: 'handover-part', 'data-part': chosen, 'aria-labelledby': 'handover-what' },
      h('h3', { id: 'handover-what' }, record ? t('handover.record-elsewhere') : t('handover.own-view', { player })),
      h('p', { class: 'small' }, record ? t('handover.record-help') : t('handover.seat-help', { player })),
      qrSvg(link, t('handover.qr', { what })),
      h('div', { class: 'field' }, field),
      h('div', { class: 'row wrap' }, copy, share, copied));
  }

  function confirmReissue() {
    const no = h('button', { type: 'button', class: 'secondary', id: 'reissue-cancel', onclick: () => render() }, t('handover.keep'));
    const err = h('div', { 'aria-live': 'assertive' });
    const yes = h('button', { type: 'button', class: 'primary danger', id: 'reissue-confirm', onclick: async () => {
      yes.disabled = true;
      try {
        const out = await api(`/games/${game.id}/tokens`, { method: 'POST', token: game.tokens().write });
        saveTokens(game.id, { write: out.write_token, seats: out.seat_tokens.map((x) => x.token) });
        onReissued();
        chosen = 'record';
        render(h('p', { class: 'notice', role: 'status', id: 'reissued' }, t('handover.reissued')));
      } catch (e) {
        yes.disabled = false;
        clear(err).append(errorBox(e, { lead: t('handover.no-new') }));
      }
    } }, t('handover.issue'));
    clear(dialog).append(
      h('h2', { id: 'handover-h' }, t('handover.issue-q')),
      h('p', {}, t('handover.issue-help')),
      err, h('div', { class: 'row' }, no, yes));
    no.focus();
  }

  return h('button', { type: 'button', id: 'handover-open', class: 'secondary', onclick: open }, t('handover.open'));
}
