/**
 * The frame's connection notice and inactivity countdown with its warning, loaded apart from
 * the first screen (components/later.ts, docs/benchmarks.md "Client first load"): the notice
 * after the first screen (main.tsx, with the rest of the translations, so that it shows even
 * when the device goes offline on the first screen), the countdown once someone is signed in
 * (Layout).
 */
import { later } from '../components/later';

export const connectionNotice = later(() => import('./ConnectionNotice'));
export const inactivityWarning = later(() => import('./InactivityWarning'));
