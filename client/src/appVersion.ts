/** The client application's version (client/package.json, put in by Vite at build time). */
declare const __APP_VERSION__: string;

export const appVersion: string = __APP_VERSION__;
