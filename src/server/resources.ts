import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { Config } from "../config/index.js";
import { ANY_COUNT, ReplyBudget } from "../core/budget.js";
import { listChildren } from "../core/children.js";
import { ToolError } from "../core/errors.js";
import { listsSkipIgnored } from "../core/gate.js";
import type { Logger } from "../core/log.js";
import { readResourceBody } from "../core/media/read-resource.js";
import type { ResolvedPath, Workspace } from "../core/workspace.js";
import { clientMessage } from "../surfaces/wording.js";
import { type FileWatchHub, MAX_SESSION_SUBSCRIPTIONS, watchLimitError } from "./file-watch.js";

/** Files inside the roots are resources under this template; `path` is the absolute path. */
export const FILE_TEMPLATE = "file://{+path}";
/** The protocol's cap on completion values in one reply. */
export const MAX_COMPLETIONS = 100;
const MAX_DIRECTORY_ENTRIES = 1000;

export interface ResourceDeps {
  ws: Workspace;
  config: Config;
  log: Logger;
  /** Awaited before every read (roots fetch in flight); throws when the server cannot operate. */
  gate: (relatedRequestId?: string | number) => Promise<void>;
  /** When set, `resources/subscribe` is served on this connection (2025 era) through this watcher. */
  watch?: FileWatchHub;
}

/** Registers the file template (read, list of roots, path completion) and, if asked, subscriptions. */
export function registerResources(server: McpServer, deps: ResourceDeps): void {
  const { ws, config } = deps;
  const template = new ResourceTemplate(FILE_TEMPLATE, {
    list: async (ctx) => {
      await deps.gate(ctx.mcpReq.id).catch(() => {});
      return { resources: ws.roots.map(rootResource) };
    },
    complete: {
      path: async (value) => {
        await deps.gate().catch(() => {});
        return completePath(ws, value, config.gitignore);
      },
    },
  });
  server.registerResource(
    "file",
    template,
    {
      title: "Files in the allowed directories",
      description:
        "Any file inside the allowed directories, by its absolute path (file:///abs/path). Text files are " +
        "returned as text (cut to the output budget), others as base64 blobs; a directory reads as a listing.",
    },
    async (uri, _vars, ctx) => {
      await deps.gate(ctx.mcpReq.id);
      return { contents: [await readFileResource(ws, uri.href, config)] };
    },
  );
  if (deps.watch) registerSubscriptions(server, deps, deps.watch);
}

function rootResource(r: Workspace["roots"][number]) {
  return {
    uri: pathToFileURL(r.path).href,
    name: r.name ?? (path.basename(r.path) || r.path),
    title: r.path,
    description: `Allowed directory${r.mode === "ro" ? " (read-only)" : ""}`,
    mimeType: "inode/directory",
  };
}

/**
 * Resolves a `file://` URI the way every tool path is resolved and passes it through the same gate as the
 * tools (read, list, subscribe and listen all come here); protocol errors name the URI only.
 */
export async function resolveResourceUri(ws: Workspace, uri: string): Promise<ResolvedPath> {
  try {
    const target = await ws.resolve(uri, { intent: "read" });
    if (!target.exists) throw new ResourceNotFoundError(uri);
    await ws.gate(target, uri, "either");
    return target;
  } catch (err) {
    throw asProtocolError(err, uri);
  }
}

function asProtocolError(err: unknown, uri: string): Error {
  if (err instanceof ProtocolError) return err;
  if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return new ResourceNotFoundError(uri);
  if (err instanceof ToolError && err.kind === "not_found") return new ResourceNotFoundError(uri);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, clientMessage(err, uri));
}

export async function readFileResource(ws: Workspace, uri: string, config: Config) {
  const target = await resolveResourceUri(ws, uri);
  try {
    // The same bound as a tool reply: the text and its note together.
    const budget = new ReplyBudget(config.maxOutputBytes);
    const cutNote = (size: number) =>
      `\n\n[mcpfs: output truncated at ${budget.limit} bytes; the file has ${size} bytes. ` +
      "Read the rest with the read_text_file tool (head/tail).]";
    const close = budget.reserve(cutNote(ANY_COUNT));
    const body = await readResourceBody(target, budget.remaining);
    if (body.kind === "blob") return { uri, mimeType: body.mimeType, blob: body.base64 };
    if (body.kind === "text") {
      const note = body.truncated ? close(cutNote(body.size)) : "";
      return { uri, mimeType: body.mimeType, text: body.text + note };
    }
    const { children, truncated } = await listChildren(target, {
      gitignore: listsSkipIgnored(ws.rules, config.gitignore),
      limit: MAX_DIRECTORY_ENTRIES,
    });
    const lines = children.map((c) => `${c.dir ? "[DIR]" : "[FILE]"} ${c.name}`);
    if (truncated) lines.push(`[mcpfs: listing cut at ${MAX_DIRECTORY_ENTRIES} entries]`);
    return { uri, mimeType: "text/plain", text: lines.join("\n") };
  } catch (err) {
    throw asProtocolError(err, uri);
  }
}

/**
 * Completes the template's `path` variable: absolute paths inside the roots that start with `value`.
 * Above the roots it offers the roots themselves; inside, the children of the folder named so far
 * (gitignore aware, folders with a trailing "/"), capped at the protocol's 100 values.
 */
export async function completePath(ws: Workspace, value: string, gitignore: boolean): Promise<string[]> {
  const out = new Set<string>();
  for (const r of ws.roots) {
    for (const p of [r.path, r.real]) if (p.startsWith(value)) out.add(p.endsWith("/") ? p : `${p}/`);
  }
  const cut = value.lastIndexOf("/");
  if (cut >= 0) {
    const dirPart = value.slice(0, cut + 1);
    const partial = value.slice(cut + 1);
    try {
      const dir = await ws.resolve(dirPart, { intent: "read" });
      await ws.gate(dir, dirPart, true);
      const { children } = await listChildren(dir, {
        gitignore: listsSkipIgnored(ws.rules, gitignore),
        prefix: partial,
        limit: MAX_COMPLETIONS,
      });
      for (const c of children) out.add(`${dirPart}${c.name}${c.dir ? "/" : ""}`);
    } catch {
      // Outside the roots, missing or not a folder: only the roots themselves are offered.
    }
  }
  return [...out].sort().slice(0, MAX_COMPLETIONS);
}

/** 2025 era: `resources/subscribe` watches the file; `notifications/resources/updated` follows changes. */
function registerSubscriptions(server: McpServer, deps: ResourceDeps, hub: FileWatchHub): void {
  const low = server.server;
  low.registerCapabilities({ resources: { subscribe: true, listChanged: false } });
  const subs = new Map<string, () => void>();
  low.setRequestHandler("resources/subscribe", async ({ params }, ctx) => {
    await deps.gate(ctx.mcpReq.id);
    const target = await resolveResourceUri(deps.ws, params.uri);
    if (!subs.has(params.uri)) {
      if (subs.size >= MAX_SESSION_SUBSCRIPTIONS)
        throw watchLimitError(`${subs.size} in this session`, MAX_SESSION_SUBSCRIPTIONS);
      subs.set(
        params.uri,
        hub.watch(target.real, () => {
          low.sendResourceUpdated({ uri: params.uri }).catch(() => {});
        }),
      );
    }
    return {};
  });
  low.setRequestHandler("resources/unsubscribe", async ({ params }) => {
    subs.get(params.uri)?.();
    subs.delete(params.uri);
    return {};
  });
  const previous = low.onclose;
  low.onclose = () => {
    for (const dispose of subs.values()) dispose();
    subs.clear();
    previous?.();
  };
}
