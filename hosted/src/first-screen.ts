/**
 * The server build's entry (built to hosted/dist/server/first-screen.js, loaded by the service): renders the first
 * screen of a page load into HTML with @lit-labs/ssr from the very templates the page's elements render, so the
 * heading and the networks (or the notice that applies) paint from the HTML, before the page's script has run.
 * The script then renders the same screen over it in one task (main.ts), which the user does not see; its buttons
 * act from then on. English only: a page in another language keeps its "Loading…" until its texts have loaded, as
 * the script would show it (so no English flashes first).
 */
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { html, type TemplateResult } from 'lit';
import { chooseLocale } from '../../src/i18n/locales.js';
import type { FirstScreenRequest } from './first-screen-contract.js';
import { ENGLISH_TEXTS } from './texts.js';
import { invalidScreenTemplate } from './views/invalid-screen.js';
import { networksScreenTemplate, isInAppBrowser } from './views/networks-screen-template.js';
import { notEmbeddableScreenTemplate } from './views/not-embeddable-screen.js';
import { originMismatchScreenTemplate } from './views/origin-mismatch-screen.js';
import { TAG } from './views/tag-names.js';

/** `navigator.languages` as the browser derives it from its preferences: Accept-Language by quality, in order. */
function languagesOf(acceptLanguage: string): string[] {
  return acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, quality }) => tag !== '' && tag !== '*' && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

interface ScreenToRender {
  /** The screen element's name: its markup goes inside it, inside `<slk-link-page>`, as the page holds it. */
  tag: string;
  template: TemplateResult;
}

const inElements = (tag: string, template: TemplateResult): ScreenToRender => ({ tag, template });

/** What the page shows first for this request, by the same rules as views/link-page.ts. */
function firstScreen(request: FirstScreenRequest): ScreenToRender {
  const texts = ENGLISH_TEXTS;
  // Popup or new tab cannot be told apart from the request; they differ only in the way back after a dead link,
  // and in the label of Done when the session has a redirect: the script corrects those when it runs.
  const mode = request.framed ? 'frame' : 'direct';
  switch (request.screen) {
    case 'origin-mismatch':
      return inElements(TAG.originMismatchScreen, originMismatchScreenTemplate(texts));
    case 'invalid':
      return inElements(TAG.invalidScreen, invalidScreenTemplate(texts, mode, null));
    case 'networks': {
      const { view } = request;
      if ((request.framed || request.widgetPopup === true) && view.embeddable === false) return inElements(TAG.notEmbeddableScreen, notEmbeddableScreenTemplate(texts));
      const none = () => {};
      return inElements(
        TAG.networksScreen,
        networksScreenTemplate({
          texts,
          view,
          mode,
          remaining: Date.parse(view.expiresAt) - Date.parse(view.serverTime),
          status: null,
          busy: null,
          step: null,
          confirmingDisconnect: null,
          inAppBrowser: isInAppBrowser(request.userAgent),
          // Nothing acts before the page script runs: it renders the screen again with its own handlers.
          actions: { connect: none, askToDisconnect: none, confirmDisconnect: none, keep: none, finish: none, stepTemplate: () => html`` },
        }),
      );
    }
  }
}

/**
 * Lit's hydration markers: the page script renders afresh rather than hydrating, so they would only add bytes and
 * nodes. Safe to match as text: rendered text and attribute values have every `<` escaped.
 */
const LIT_MARKERS = /<!--\/?lit-(?:part|node)[^>]*-->/g;

/** Whether the request's language is English, the one language rendered on the server. */
function inEnglish(request: FirstScreenRequest): boolean {
  const sessionLocale = request.screen === 'networks' ? (request.view.locale ?? null) : null;
  return chooseLocale(sessionLocale, languagesOf(request.acceptLanguage)) === ENGLISH_TEXTS.locale;
}

export function renderFirstScreen(request: FirstScreenRequest): string | null {
  if (!inEnglish(request)) return null;
  const { tag, template } = firstScreen(request);
  return `<${TAG.linkPage}><${tag}>${collectResultSync(render(template)).replace(LIT_MARKERS, '')}</${tag}></${TAG.linkPage}>`;
}

/**
 * What the rendered screen depends on, as a string: two requests with the same key render the same HTML, so the
 * service may keep one render per key (most pages of one integrator look alike). The request as it is, except
 * what the templates never show: the session's id, its exact expiry and server time (only the countdown as shown
 * counts), the whole user agent (only whether it is an in-app browser) and the languages (only whether the page
 * is English). server/test/linking/first-screen-cache.test.ts renders varied requests and fails when two of the
 * same key differ.
 */
export function firstScreenKey(request: FirstScreenRequest): string {
  if (!inEnglish(request)) return 'not-english';
  if (request.screen !== 'networks') return JSON.stringify([request.screen, request.framed]);
  // Only the "not embeddable" notice depends on the widget's popup; other renders share their key with a plain popup.
  if (request.widgetPopup === true && request.view.embeddable === false) return JSON.stringify([request.screen, 'widget-popup-not-embeddable']);
  const shown = { ...request.view, sessionId: '', expiresAt: '', serverTime: '' };
  const remaining = Date.parse(request.view.expiresAt) - Date.parse(request.view.serverTime);
  const countdown = [remaining < 60_000, ENGLISH_TEXTS.formatDuration(remaining)];
  return JSON.stringify([request.screen, request.framed, isInAppBrowser(request.userAgent), countdown, shown]);
}
