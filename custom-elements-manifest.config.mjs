// custom-elements.json for the widget (npm run build:cem).
export default {
  globs: ['src/widget/**/*.ts'],
  exclude: ['src/widget/**/*.styles.ts'],
  litelement: true,
  outdir: '.',
  plugins: [
    {
      // The analyzer reads `new SomeEvent(x)` as an event named after its first argument; our event classes take a
      // detail or reason there and carry the name themselves (documented with @event), so drop those guesses.
      name: 'drop-guessed-event-names',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (declaration.events) {
              declaration.events = declaration.events.filter((event) => event.name?.startsWith('social-link-'));
            }
          }
        }
      },
    },
  ],
};
