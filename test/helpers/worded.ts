/**
 * The official words of what a core operation throws: the core's errors are data (kind and detail), so a
 * test of a core module reads the text a client would get through the surfaces' one table.
 */
import { clientMessage } from "../../src/surfaces/wording.js";

/** The official text of the error `p` rejects with (fails when it resolves). */
export async function wordedRejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return clientMessage(err);
  }
  throw new Error("expected a rejection");
}

/** The official text of the error `f` throws (fails when it returns). */
export function wordedThrow(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return clientMessage(err);
  }
  throw new Error("expected a throw");
}
