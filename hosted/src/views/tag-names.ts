/** The page's element names, in one place: the elements define themselves by them and the server render wraps in them. */
export const TAG = {
  linkPage: 'slk-link-page',
  loadingScreen: 'slk-loading-screen',
  loadFailedScreen: 'slk-load-failed-screen',
  invalidScreen: 'slk-invalid-screen',
  expiredScreen: 'slk-expired-screen',
  originMismatchScreen: 'slk-origin-mismatch-screen',
  notEmbeddableScreen: 'slk-not-embeddable-screen',
  networksScreen: 'slk-networks-screen',
} as const;
