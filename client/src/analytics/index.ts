/** The app's analytics client (over the callable client). */
import { callFunction } from '../realtime';
import { createAnalytics } from './analytics';

export const analytics = createAnalytics({ call: callFunction });
