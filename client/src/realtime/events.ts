/**
 * Socket.IO event names, mirrored from the server (docs/protocol.md "Callables" and "Live documents").
 */
export const ClientEvent = {
  /** `{name, data}` -> ack `{data}` | `{error}` */
  call: 'call',
  /** `{path, version?}` -> ack `{snapshot}` | `{error}` */
  subscribe: 'subscribe',
  /** `{path}` -> ack `{ok: true}` */
  unsubscribe: 'unsubscribe',
  /** `{path, data, baseVersion?}` -> ack `{version}` | `{error}` */
  update: 'update',
  /** `{step?}`, no ack */
  activity: 'activity',
} as const;

export const ServerEvent = {
  /** `{path, exists, data, version}` */
  snapshot: 'snapshot',
  /** `{state: 'active' | 'warning' | 'expired', secondsLeft}` */
  session: 'session',
  /** `{path, day, counselorId, version, changes}`: a bookings window's day stream (docs/protocol.md "The bookings window") */
  changes: 'changes',
} as const;

export interface SessionNotice {
  state: 'active' | 'warning' | 'expired';
  secondsLeft: number;
}
