/** What a closing connection waits for, the same on every transport: the calls in flight, for a while. */

/** How long a closing connection (HTTP's shutdown, stdio's stdin end) lets the calls in flight finish. */
export const DRAIN_MS = 10_000;

/** A `subscriptions/listen` request: a stream that stays open until the connection ends, not a call to wait for. */
export function isListen(message: unknown): boolean {
  return (message as { method?: unknown } | null)?.method === "subscriptions/listen";
}
