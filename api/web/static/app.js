// The page's router: ?game=ID[&at=N] a game; ?share=TOKEN a shared game; ?page=new start one; ?page=stats statistics;
// ?page=packs (or #/packs) content packs; else the list.
import { h, clear } from './dom.js';
import { t, translateStatic, languageSwitch } from './i18n.js';

translateStatic();
for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
document.querySelector('footer.bottom').append(' · ', languageSwitch());

const main = document.getElementById('main');
let current = null; // the page now shown: {leave()}

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  route();
}

async function route() {
  if (current && current.leave) current.leave();
  current = null;
  const q = new URLSearchParams(location.search);
  if (!q.get('page') && location.hash.startsWith('#/packs')) q.set('page', 'packs');
  const page = q.get('share') ? 'shared' : q.get('game') ? 'game' : (q.get('page') || 'games');
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === page) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  clear(main);
  main.setAttribute('aria-busy', 'true');
  try {
    const mod = await import(`./pages/${page === 'shared' ? 'shared' : page === 'game' ? 'game' : page === 'new' ? 'new' : page === 'stats' ? 'stats' : page === 'packs' ? 'packs' : 'games'}.js`);
    current = await mod.show(main, q, { navigate });
  } catch (err) {
    console.error(err);
    clear(main).append(h('div', { class: 'error', role: 'alert' }, h('strong', {}, t('shell.not-shown')), err.message || String(err)));
  } finally {
    main.removeAttribute('aria-busy');
  }
}

// links inside the app change the page without a reload
document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[href]');
  if (!a || a.target || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname !== '/') return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', route);
window.addEventListener('hashchange', () => { if (location.hash.startsWith('#/packs')) route(); }); // the skip link's #main is no page
route();
