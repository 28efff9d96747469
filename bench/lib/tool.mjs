// Measures one tool call on a fresh server: warm-up, timed runs, peak RSS, reply size.
import { connect } from "./client.mjs";
import { median } from "./measure.mjs";

/**
 * `server` is { bin, args, env }. Returns { na: true } when the server lacks the tool, otherwise
 * { ms, samples, hwm (peak RSS MiB over start + calls), rssBefore, text (last reply), structured and blocks
 * (its structuredContent and content), wire, isError }.
 */
export async function measureTool(server, tool, params, { runs = 5, warmup = 1, timeoutMs, alongside } = {}) {
  const conn = await connect(server.bin, server.args, server.env);
  try {
    if (!conn.has(tool)) return { na: true };
    const rssBefore = conn.mem().rss;
    let last;
    for (let i = 0; i < warmup; i++) last = await conn.call(tool, params, timeoutMs);
    const samples = [];
    // `alongside` (an OS command) runs right after each call, so both see the same machine load.
    const other = [];
    for (let i = 0; i < runs; i++) {
      last = await conn.call(tool, params, timeoutMs);
      samples.push(last.ms);
      if (alongside) other.push(alongside());
    }
    return {
      ms: median(samples),
      samples,
      alongsideMs: alongside ? median(other) : undefined,
      hwm: conn.mem().hwm,
      rssBefore,
      text: last.text,
      structured: last.result?.structuredContent,
      blocks: last.result?.content,
      wire: last.wire,
      isError: last.isError,
    };
  } catch (err) {
    return { error: String(err?.message ?? err).slice(0, 200) };
  } finally {
    await conn.close();
  }
}

/** The two servers on a directory (filesystem surface), plus mcpfs's workspace surface. */
export function servers(ctx, dir, env = {}) {
  return {
    mcpfs: { bin: ctx.mcpfs, args: [dir], env },
    official: { bin: ctx.official, args: [dir], env: {} },
    workspace: { bin: ctx.mcpfs, args: ["--project-dir", dir], env },
  };
}

/** A time, or "n/a" when the server lacks the tool, or "error". */
export function timeOf(m) {
  if (!m) return undefined;
  if (m.na) return "n/a";
  if (m.error || m.isError) return "error";
  return m.ms;
}

export const isNum = (v) => typeof v === "number" && Number.isFinite(v);
