/**
 * @module
 * Share links of the two common file-sharing services, rewritten to direct downloads (spec 4.9 rule 1): a share
 * page is HTML, the network needs the file itself.
 * - Dropbox: `www.dropbox.com/s/…?dl=0` (and `/scl/fi/…`) → the same address with `dl=1`.
 * - Google Drive: `drive.google.com/file/d/<id>/view` or `…/open?id=<id>` → `drive.google.com/uc?export=download&id=<id>`.
 * Any other URL comes back unchanged.
 */
export function directDownloadUrl(url: URL): URL {
  const host = url.hostname.toLowerCase();
  if (host === 'www.dropbox.com' || host === 'dropbox.com') {
    const direct = new URL(url.href);
    direct.searchParams.delete('raw');
    direct.searchParams.set('dl', '1');
    return direct;
  }
  if (host === 'drive.google.com') {
    const id = /^\/file\/d\/([\w-]+)/.exec(url.pathname)?.[1] ?? (url.pathname === '/open' ? url.searchParams.get('id') : null);
    if (id) return new URL(`https://drive.google.com/uc?export=download&id=${encodeURIComponent(id)}`);
  }
  return url;
}
