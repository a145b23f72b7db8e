// The site's own cross-origin isolation, for hosts that send no COOP/COEP headers (GitHub
// Pages, `python3 -m http.server`): this service worker adds them to the site's responses, so
// the in-page engine may use threads (SharedArrayBuffer). www/isolation.js registers it only
// when the person opens the in-page engine on a page that is not isolated (the
// coi-serviceworker approach). COEP is `credentialless` where the browser has it (a
// cross-origin load without CORS then goes without cookies instead of being refused), else
// `require-corp`; the registration says which (`?coep=`).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const COEP = new URL(sw.location.href).searchParams.get('coep') === 'require-corp' ? 'require-corp' : 'credentialless';

sw.addEventListener('install', () => sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  // Only the site's own responses get the headers; another origin's go to the network as they are.
  if (new URL(request.url).origin !== sw.location.origin) return;
  // fetch() refuses this combination (devtools ask for it).
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(fetch(request).then(isolated));
});

/** The response with the isolation headers (an opaque one, a redirect, has none to add). */
function isolated(response) {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', COEP);
  headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
