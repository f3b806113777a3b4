import type { Locator, Page } from '@playwright/test';

/**
 * Clicks a button that closes its own window (the hosted page's Done in popup mode calls window.close()).
 * The window can be gone before Playwright hears that the click finished, which it reports as
 * "Target page, context or browser has been closed"; that error is expected only when the page did close.
 */
export async function clickAndWaitForClose(page: Page, button: Locator): Promise<void> {
  const closed = page.waitForEvent('close');
  await button.click().catch((error: unknown) => {
    if (!page.isClosed()) throw error;
  });
  await closed;
}
