import { spawn } from "node:child_process";

export interface Swapper {
  /** True once the swapper process has exited (workers loop until then). */
  readonly done: boolean;
  /** Exit code and what the script printed (its iteration count). */
  readonly finished: Promise<{ code: number | null; printed: string }>;
}

/** Runs a race script (`node -e script ...args`) in its own process, beside the server under test. */
export function startSwapper(script: string, args: string[]): Swapper {
  const child = spawn(process.execPath, ["-e", script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let printed = "";
  child.stdout.on("data", (d) => {
    printed += d;
  });
  const state = { done: false };
  const finished = new Promise<{ code: number | null; printed: string }>((resolve) => {
    child.on("close", (code) => {
      state.done = true;
      resolve({ code, printed });
    });
  });
  return {
    get done() {
      return state.done;
    },
    finished,
  };
}
