/** Types of chromium.config.mjs, for the TypeScript configs that import it. */
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: string[];
