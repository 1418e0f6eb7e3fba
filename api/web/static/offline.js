// Moves tapped while the connection is down: kept in this device's storage with their
// idempotency key, shown as waiting, and sent once the connection is back (when the browser
// says it is online, and again with growing pauses). The server records a key once, so a move
// whose first answer was lost is not recorded twice when it is sent again; if that move was taken
// back meanwhile on another device, the server refuses the resend (move-taken-back) and it is dropped.
import { api } from './api.js';
import { h, clear } from './dom.js';
import { t } from './i18n.js';

const KEY = (id) => `tabletape.outbox.${id}`;
const PAUSES = [1000, 2000, 4000, 8000, 15000, 30000];

export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context; a LAN address is not one
  return `web-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

// no answer at all, or a proxy's word that the server is not there: worth sending again
export const unanswered = (err) => !!err && [0, 502, 503, 504].includes(err.status);

function load(id) {
  try { return JSON.parse(localStorage.getItem(KEY(id))) || []; } catch { return []; }
}
function store(id, list) {
  if (list.length) localStorage.setItem(KEY(id), JSON.stringify(list)); else localStorage.removeItem(KEY(id));
}

// The outbox of one game. ``token()`` is the write token now; ``landed()`` is told when queued
// moves are in the log, ``refused(err)`` when the server turned one down (it is dropped: the
// game may have moved on elsewhere), ``changed()`` whenever what waits changes.
export function outbox(id, { token, landed, refused, changed }) {
  let timer = null;
  let tries = 0;
  let sending = false;
  let stopped = false;
  const status = h('p', { class: 'outbox notice', id: 'outbox', role: 'status', hidden: true });

  const pending = () => load(id);
  const notify = () => { show(); changed(); };
  function show() {
    const list = pending();
    status.hidden = !list.length;
    clear(status);
    if (list.length) {
      status.append(h('strong', {}, t('offline.not-sent', { n: list.length, one: list.length === 1 })),
        navigator.onLine ? t('offline.retrying') : t('offline.no-connection'));
    }
  }

  // a move the server did not answer: keep it to send again
  function hold(body, label) {
    const list = pending();
    if (!list.some((m) => m.body.idempotency_key === body.idempotency_key)) list.push({ body, label });
    store(id, list);
    notify();
    later();
  }

  function later() {
    clearTimeout(timer);
    if (stopped || !pending().length) return;
    timer = setTimeout(flush, PAUSES[Math.min(tries, PAUSES.length - 1)]);
    tries += 1;
  }

  async function flush() {
    clearTimeout(timer);
    if (stopped || sending || !pending().length) return;
    if (!navigator.onLine) { show(); return; } // the 'online' event sends them
    sending = true;
    let sent = 0;
    try {
      for (const m of pending()) {
        try {
          await api(`/games/${id}/moves`, { method: 'POST', token: token(), body: m.body });
        } catch (err) {
          if (unanswered(err)) { later(); return; }
          store(id, pending().filter((x) => x.body.idempotency_key !== m.body.idempotency_key));
          refused(err, m);
          changed();
          continue;
        }
        sent += 1;
        store(id, pending().filter((x) => x.body.idempotency_key !== m.body.idempotency_key));
      }
      tries = 0;
    } finally {
      sending = false;
      if (sent) { notify(); landed(); } else show();
    }
  }

  const online = () => { tries = 0; flush(); };
  const offline = () => show();
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  show();
  if (pending().length) flush();

  // what waits, as lines of the timeline
  const timelineItems = () => pending().map((m) => h('li', { class: 'pending', 'data-pending': m.body.idempotency_key },
    h('span', { class: 'badge pending-badge' }, t('generic.not-sent')), ' ', m.label || t('generic.a-move')));

  return {
    status, hold, flush, pending, timelineItems,
    stop() { stopped = true; clearTimeout(timer); window.removeEventListener('online', online); window.removeEventListener('offline', offline); },
  };
}
