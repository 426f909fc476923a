// How many live notification streams one session and one member may hold on an instance: a handful of tabs is normal use, more only holds connections open; a new stream
// displaces the oldest ones over the caps.

export const STREAMS_PER_SESSION = 3;
export const STREAMS_PER_MEMBER = 6;

export type StreamCaps = { perSession: number; perMember: number };

/**
 * The streams to close so that a member's open streams (oldest first, the new one last) fit the
 * caps: per session first, then per member, the oldest of each group first.
 */
export function streamsOverCap<T extends { sessionId: string }>(
  open: readonly T[],
  caps: StreamCaps = { perSession: STREAMS_PER_SESSION, perMember: STREAMS_PER_MEMBER },
): T[] {
  const closing = new Set<T>();
  const bySession = new Map<string, T[]>();
  for (const stream of open) {
    const list = bySession.get(stream.sessionId);
    if (list) list.push(stream);
    else bySession.set(stream.sessionId, [stream]);
  }
  for (const list of bySession.values()) for (const stream of list.slice(0, Math.max(0, list.length - caps.perSession))) closing.add(stream);
  const kept = open.filter((stream) => !closing.has(stream));
  for (const stream of kept.slice(0, Math.max(0, kept.length - caps.perMember))) closing.add(stream);
  return open.filter((stream) => closing.has(stream));
}
