/** Maps over items with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Per signal, the callbacks its abort runs: one listener per signal however many waits it has. */
const onAborts = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `fn` when `signal` aborts; returns its removal. A tree-wide call waits on hundreds of files under one
 * signal, and a listener each passed Node's leak warning at eleven: the signal gets one listener, on its
 * first wait, which lives as long as the signal (the call's).
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  // An aborted signal fires no more events: its waiter is told at once (after the caller's own set-up).
  if (signal.aborted) {
    let live = true;
    queueMicrotask(() => live && fn());
    return () => {
      live = false;
    };
  }
  let set = onAborts.get(signal);
  if (!set) {
    const mine = new Set<() => void>();
    onAborts.set(signal, mine);
    signal.addEventListener(
      "abort",
      () => {
        for (const f of [...mine]) f();
      },
      { once: true },
    );
    set = mine;
  }
  set.add(fn);
  const waits = set;
  return () => waits.delete(fn);
}
