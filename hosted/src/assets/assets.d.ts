/** Vite answers `?url` imports with the built file's address. */
declare module '*.svg?url' {
  const url: string;
  export default url;
}
