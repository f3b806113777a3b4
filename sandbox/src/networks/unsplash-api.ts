/**
 * @module
 * The sandbox Unsplash API under `/sandbox/unsplash`, on Unsplash's real paths and answer shapes, so the service's
 * Unsplash client (publishing/media/unsplash.ts) runs offline unchanged:
 * - `GET /photos/random`, `GET /search/photos?query&per_page&page` (`{total, total_pages, results}`),
 *   `GET /photos/:id` (404 `{errors: ["Couldn't find Photo"]}`), `GET /photos/:id/download` (the download-tracking
 *   call: counts and answers `{url}`), `GET /photos/:id/statistics` (`downloads.total`, to see the tracking).
 * - Every call needs `Authorization: Client-ID sandbox-unsplash-access-key`; otherwise 401 as Unsplash answers.
 * The photos are the stock catalogue (stock-images.ts), served by the sandbox media host; a search matches words
 * against their tags. Download counts live in this process (a sandbox, for tests and demos).
 */
import type { SandboxEnv, SandboxHost, StockImage } from '@social-link-kit/server/sandbox-host.js';
import { SANDBOX_UNSPLASH_KEY, SANDBOX_UNSPLASH_PATH, STOCK_CATALOGUE } from '@social-link-kit/server/sandbox-kit.js';
import { randomInt } from 'node:crypto';
import { Hono, type Context } from 'hono';

/** A photographer per catalogue photo, for the attribution the service must keep. */
const photographerOf = (image: StockImage) => {
  const name = image.id.replace(/^stock-/, '');
  return { username: `sandbox_${name}`, name: `Sandbox ${name[0]!.toUpperCase()}${name.slice(1)} Photographer` };
};

export function sandboxUnsplashRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const downloads = new Map<string, number>();
  const api = () => `${deps.config.publicUrl}${SANDBOX_UNSPLASH_PATH}`;

  const photo = (image: StockImage) => {
    const { username, name } = photographerOf(image);
    const file = `${deps.config.publicUrl}/sandbox/media/stock/${image.id}.jpg`;
    return {
      id: image.id,
      width: 1080,
      height: 1080,
      description: `Sandbox stock photo: ${image.tags.join(', ')}`,
      alt_description: image.tags.slice(0, 3).join(' '),
      urls: { raw: file, full: file, regular: file, small: file, thumb: file },
      links: { self: `${api()}/photos/${image.id}`, html: `${api()}/photos/${image.id}`, download: file, download_location: `${api()}/photos/${image.id}/download` },
      user: { id: username, username, name, links: { html: `${api()}/users/${username}` } },
    };
  };

  const notFound = (c: Context<SandboxEnv>) => c.json({ errors: ["Couldn't find Photo"] }, 404);

  routes.use('*', async (c, next) => {
    if (c.req.header('authorization') !== `Client-ID ${SANDBOX_UNSPLASH_KEY}`) return c.json({ errors: ['OAuth error: The access token is invalid'] }, 401);
    return next();
  });

  routes.get('/photos/random', (c) => c.json(photo(STOCK_CATALOGUE[randomInt(STOCK_CATALOGUE.length)]!)));

  routes.get('/search/photos', (c) => {
    const words = (c.req.query('query') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return c.json({ errors: ['query is missing'] }, 400);
    const perPage = Math.min(30, Math.max(1, Number(c.req.query('per_page')) || 10));
    const page = Math.max(1, Number(c.req.query('page')) || 1);
    const matches = STOCK_CATALOGUE.filter((image) => words.some((word) => image.tags.includes(word)));
    return c.json({ total: matches.length, total_pages: Math.ceil(matches.length / perPage), results: matches.slice((page - 1) * perPage, page * perPage).map(photo) });
  });

  const find = (id: string) => STOCK_CATALOGUE.find((image) => image.id === id);

  routes.get('/photos/:id', (c) => {
    const image = find(c.req.param('id'));
    return image ? c.json(photo(image)) : notFound(c);
  });

  routes.get('/photos/:id/download', (c) => {
    const image = find(c.req.param('id'));
    if (!image) return notFound(c);
    downloads.set(image.id, (downloads.get(image.id) ?? 0) + 1);
    return c.json({ url: photo(image).urls.full });
  });

  routes.get('/photos/:id/statistics', (c) => {
    const image = find(c.req.param('id'));
    return image ? c.json({ id: image.id, downloads: { total: downloads.get(image.id) ?? 0 } }) : notFound(c);
  });

  return routes;
}
