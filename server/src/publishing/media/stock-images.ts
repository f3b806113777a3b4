/**
 * @module
 * Stock images for the post field spec 2.1 calls "the service": `random`, a search term, or an array of image ids.
 * The provider is a base URL serving `<id>.jpg` for the ids of a small catalogue; by default the sandbox media host
 * (`{publicUrl}/sandbox/media/stock`), so posting with stock images works offline and deterministically. Another
 * provider with the same layout is configured by giving its base URL. `random` picks from a seed (the post id), so
 * a retried post gets the same image.
 */
import { createHash } from 'node:crypto';

export interface StockImage {
  id: string;
  /** Words a search term is matched against. */
  tags: readonly string[];
}

export const STOCK_CATALOGUE: readonly StockImage[] = [
  { id: 'stock-sea', tags: ['sea', 'ocean', 'beach', 'water', 'summer', 'blue'] },
  { id: 'stock-mountain', tags: ['mountain', 'hike', 'snow', 'nature', 'outdoors'] },
  { id: 'stock-city', tags: ['city', 'street', 'urban', 'night', 'building'] },
  { id: 'stock-forest', tags: ['forest', 'tree', 'green', 'nature', 'park'] },
  { id: 'stock-desert', tags: ['desert', 'sand', 'sun', 'travel', 'orange'] },
  { id: 'stock-food', tags: ['food', 'meal', 'restaurant', 'cooking', 'coffee'] },
];

export type StockResolution = { ok: true; urls: string[] } | { ok: false; message: string };

export function resolveStockImages(value: unknown, options: { baseUrl: string; seed: string }): StockResolution {
  const url = (id: string) => `${options.baseUrl.replace(/\/+$/, '')}/${id}.jpg`;
  if (Array.isArray(value)) {
    if (value.length === 0 || value.length > 10) return { ok: false, message: 'Give 1 to 10 stock image ids.' };
    const unknown = value.filter((id) => typeof id !== 'string' || !STOCK_CATALOGUE.some((image) => image.id === id));
    if (unknown.length > 0) return { ok: false, message: `Unknown stock image id(s): ${unknown.map(String).join(', ').slice(0, 200)}.` };
    return { ok: true, urls: (value as string[]).map(url) };
  }
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, message: 'Stock images: give `random`, a search term, or an array of image ids.' };
  const term = value.trim().toLowerCase();
  if (term === 'random') return { ok: true, urls: [url(pick(STOCK_CATALOGUE, options.seed).id)] };
  const words = term.split(/\s+/);
  const matches = STOCK_CATALOGUE.filter((image) => words.some((word) => image.tags.includes(word)));
  // No match still gives an image (as a search would), chosen from the term so the same term gives the same image.
  return { ok: true, urls: [url(pick(matches.length > 0 ? matches : STOCK_CATALOGUE, term).id)] };
}

function pick<T>(items: readonly T[], seed: string): T {
  const hash = createHash('sha256').update(seed).digest();
  return items[hash.readUInt32BE(0) % items.length]!;
}

/** The post field for stock images. Spec 2.1 lists it only under the placeholder "the service" (see README). */
export const STOCK_FIELD = 'stockImages';

/**
 * The request with its stock images added to `mediaUrls` (after the URLs it gives; in the object form, to every
 * platform's list and to `default`), so the rest of the pipeline checks and converts them as any media URL. Done
 * once at create time: the stored request keeps the chosen URLs, so a retry or a later publication uses the same.
 */
export function withStockImages<T extends { stockImages?: string | string[]; mediaUrls?: string[] | Record<string, string[] | undefined> }>(
  request: T,
  options: { baseUrl: string; seed: string },
): { ok: true; request: T } | { ok: false; message: string } {
  if (request.stockImages === undefined) return { ok: true, request };
  const stock = resolveStockImages(request.stockImages, options);
  if (!stock.ok) return stock;
  return { ok: true, request: { ...request, mediaUrls: appendMediaUrls(request.mediaUrls, stock.urls) as T['mediaUrls'] } };
}

/** `mediaUrls` with `urls` after the ones given; in the object form, added to every platform's list and to `default`. */
export function appendMediaUrls(media: string[] | Record<string, string[] | undefined> | undefined, urls: string[]): string[] | Record<string, string[]> {
  if (media === undefined) return urls;
  if (Array.isArray(media)) return [...media, ...urls];
  return { ...Object.fromEntries(Object.entries(media).map(([key, list]) => [key, [...(list ?? []), ...urls]])), default: [...(media.default ?? []), ...urls] };
}
