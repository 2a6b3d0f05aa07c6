/**
 * One document followed by several components: the first follower subscribes, the last one
 * to let go unsubscribes. Each release is idempotent (a React effect may clean up twice).
 */
export function countedFollow(
  counts: Map<string, number>,
  path: string,
  first: () => void,
  last: () => void,
): () => void {
  const count = counts.get(path) ?? 0;
  counts.set(path, count + 1);
  if (count === 0) first();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(path) ?? 1) - 1;
    if (left > 0) {
      counts.set(path, left);
      return;
    }
    counts.delete(path);
    last();
  };
}
