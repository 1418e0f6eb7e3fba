// The embed frame page (/embed/TOKEN): the shared replay alone, for another site's <iframe>.
import { clear } from './dom.js';
import { translateStatic } from './i18n.js';
import { show } from './pages/shared.js';

translateStatic();
const main = document.getElementById('main');
const token = decodeURIComponent(location.pathname.split('/').pop() || '');
clear(main);
show(main, new URLSearchParams({ share: token }), { embed: true }).catch(console.error);
