/**
 * A loopback HTTP server (127.0.0.1 only) that plays GitHub's REST API for the GitHub tools' tests.
 * Every request it receives is checked against GitHub's published OpenAPI description (@octokit/openapi):
 * the operation must exist, path and query parameters must be declared and valid, and a JSON body must match
 * the request schema. Every reply a test makes it send is validated against the same description, so the
 * fake cannot drift from the real API. Problems are collected in `violations` (tests assert it stays empty).
 */
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { afterEach, expect } from "vitest";
import { ROOT } from "./server.js";

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is untyped JSON
type Json = any;

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = ((formatsModule as { default?: unknown }).default ?? formatsModule) as unknown as (
  ajv: Ajv,
) => void;

export interface FakeRequest {
  method: string;
  /** The OpenAPI path template that matched, e.g. `/repos/{owner}/{repo}/issues/{issue_number}`. */
  route: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Json;
  headers: http.IncomingHttpHeaders;
}

export interface FakeReply {
  status?: number;
  body?: Json;
  headers?: Record<string, string>;
  /** Answer only after this long (to exercise client timeouts). */
  delayMs?: number;
  /** A non-JSON body (log downloads). */
  text?: string;
}

type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/** OpenAPI 3.0's `nullable` → JSON Schema, in place. */
function toJsonSchema(o: Json): Json {
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) o[i] = toJsonSchema(o[i]);
    return o;
  }
  if (!o || typeof o !== "object") return o;
  for (const k of Object.keys(o)) o[k] = toJsonSchema(o[k]);
  if (typeof o.nullable === "boolean") {
    const n = o.nullable;
    delete o.nullable;
    if (!n) return o;
    if (typeof o.type === "string") {
      o.type = [o.type, "null"];
      if (Array.isArray(o.enum) && !o.enum.includes(null)) o.enum.push(null);
      return o;
    }
    return { anyOf: [o, { type: "null" }] };
  }
  return o;
}

interface Operation {
  method: string;
  template: string;
  regex: RegExp;
  names: string[];
  op: Json;
}

/** The parsed description and its validators, loaded once per test file. */
class ApiDescription {
  readonly spec: Json;
  readonly ajv: Ajv;
  readonly operations: Operation[] = [];
  private cache = new Map<string, ValidateFunction>();

  constructor() {
    const file = path.join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
    this.spec = JSON.parse(fs.readFileSync(file, "utf8"));
    toJsonSchema(this.spec.components);
    toJsonSchema(this.spec.paths);
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(this.spec, "gh");
    for (const [template, item] of Object.entries<Json>(this.spec.paths)) {
      const names: string[] = [];
      const re = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_m, n) => {
        names.push(n);
        return "([^/]+)";
      });
      for (const method of ["get", "post", "patch", "put", "delete"]) {
        if (item[method])
          this.operations.push({
            method: method.toUpperCase(),
            template,
            regex: new RegExp(`^${re}$`),
            names,
            op: item[method],
          });
      }
    }
    // Literal segments beat parameters (`/issues/comments` before `/issues/{issue_number}`).
    this.operations.sort((a, b) => a.names.length - b.names.length);
  }

  deref(o: Json): Json {
    let cur = o;
    while (cur?.$ref) {
      cur = (cur.$ref as string)
        .slice(2)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce((a: Json, k: string) => a[k], this.spec);
    }
    return cur;
  }

  validator(key: string, schema: Json): ValidateFunction {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const v = this.ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"gh#/')));
    this.cache.set(key, v);
    return v;
  }

  find(method: string, p: string): { operation: Operation; params: Record<string, string> } | undefined {
    for (const operation of this.operations) {
      if (operation.method !== method) continue;
      const m = operation.regex.exec(p);
      if (!m) continue;
      const params: Record<string, string> = {};
      operation.names.forEach((n, i) => {
        params[n] = decodeURIComponent(m[i + 1]!);
      });
      return { operation, params };
    }
    return undefined;
  }
}

let description: ApiDescription | undefined;
function api(): ApiDescription {
  description ??= new ApiDescription();
  return description;
}

function coerce(value: string, schema: Json): Json {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === "integer" || type === "number") return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  if (type === "array") return value.split(",");
  return value;
}

const errText = (v: ValidateFunction) =>
  (v.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`)
    .join("; ");

export class FakeGitHub {
  readonly requests: FakeRequest[] = [];
  readonly violations: string[] = [];
  url = "";
  /** The token requests must carry (`Authorization: token <t>` or `Bearer <t>`). */
  token = "test-token";
  private handlers = new Map<string, Handler>();
  private graphqlHandler?: Handler;
  /** Every request that reached the server, before any check (for "nothing was sent" assertions). */
  readonly received: { method: string; url: string; authorization?: string }[] = [];
  private server: http.Server;
  private readonly api = api();

  /** With `tls`, serves HTTPS (a stand-in for a foreign or an Enterprise host; the certificate names 127.0.0.1). */
  constructor(private readonly tls?: { key: string; cert: string }) {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      this.received.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
      });
      void this.handle(req, res);
    };
    this.server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  }

  /** Answers `"<METHOD> <template>"`, e.g. `"GET /repos/{owner}/{repo}/issues/{issue_number}"`. */
  on(route: string, handler: Handler): this {
    const [method, template] = route.split(" ");
    if (!this.api.spec.paths[template!]?.[method!.toLowerCase()])
      throw new Error(`The fake cannot answer ${route}: GitHub has no such operation`);
    this.handlers.set(route, handler);
    return this;
  }

  /**
   * GraphQL is not in the REST description: replies are validated against `schema`, a JSON Schema written from
   * GitHub's GraphQL types for the query being answered, and variables against `variables`.
   */
  onGraphql(handler: Handler, schema: Json, variables: Json): this {
    this.graphqlHandler = handler;
    this.graphqlSchema = this.api.ajv.compile(schema);
    this.graphqlVariables = this.api.ajv.compile(variables);
    return this;
  }

  private graphqlSchema?: ValidateFunction;
  private graphqlVariables?: ValidateFunction;

  reset(): void {
    this.pending.length = 0;
    this.handlers.clear();
    this.graphqlHandler = undefined;
    this.requests.length = 0;
    this.received.length = 0;
    this.violations.length = 0;
  }

  /** Requests that matched a route, as `"<METHOD> <path>"` strings (for order assertions). */
  calls(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const port = (this.server.address() as AddressInfo).port;
    this.url = `${this.tls ? "https" : "http"}://127.0.0.1:${port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Example objects from the description, deep-copied (tests patch what they need). */
  example(name: string): Json {
    const ex = this.api.spec.components.examples[name];
    if (!ex) throw new Error(`no example ${name}`);
    return structuredClone(this.api.deref(ex).value);
  }

  /** Checks a JSON value against a named component schema (for fixtures built by tests). */
  check(schemaName: string, value: Json): string | undefined {
    const v = this.api.validator(`schema:${schemaName}`, { $ref: `#/components/schemas/${schemaName}` });
    return v(value) ? undefined : errText(v);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    const method = req.method ?? "GET";
    let p = url.pathname;
    if (p.startsWith("/_blob/")) return this.send(res, { status: 200, text: this.blobs.get(p) ?? "" });
    // GitHub Enterprise Server serves REST under /api/v3 and GraphQL at /api/graphql.
    if (p.startsWith("/api/v3/")) p = p.slice("/api/v3".length);
    if (p === "/api/graphql") p = "/graphql";
    const auth = req.headers.authorization ?? "";
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) {
      this.violations.push(`${method} ${p}: missing or wrong Authorization header`);
      return this.send(res, {
        status: 401,
        body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" },
      });
    }
    let body: Json;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        this.violations.push(`${method} ${p}: body is not JSON`);
      }
    }
    if (p === "/graphql" && method === "POST") return this.handleGraphql(req, res, url, body);

    const found = this.api.find(method, p);
    if (!found) {
      this.violations.push(`${method} ${p}: GitHub has no such operation`);
      return this.send(res, {
        status: 404,
        body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" },
      });
    }
    const { operation, params } = found;
    const fr: FakeRequest = {
      method,
      route: operation.template,
      path: p,
      params,
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    this.requests.push(fr);
    const handler = this.handlers.get(`${method} ${operation.template}`);
    let reply: FakeReply;
    try {
      reply = handler
        ? await handler(fr)
        : { status: 404, body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" } };
    } catch (err) {
      // A failed expectation inside a handler: record it, and answer so the client does not hang.
      this.violations.push(`${method} ${p}: handler failed: ${(err as Error).message}`);
      reply = {
        status: 404,
        body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" },
      };
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    this.send(res, reply);
    // Validate after answering: compiling a schema the first time can take longer than a client's timeout.
    this.later(() => {
      this.checkRequest(operation, params, url.searchParams, body, raw);
      this.checkReply(operation, reply);
    });
  }

  private pending: (() => void)[] = [];

  /**
   * Validation runs when a test asks (`settled`), not while serving: compiling a schema the first time can
   * block this process longer than the client's timeout.
   */
  private later(fn: () => void): void {
    this.pending.push(fn);
  }

  /** Validates every request and reply so far (results land in `violations`). */
  async settled(): Promise<void> {
    while (this.pending.length) this.pending.shift()!();
  }

  private blobs = new Map<string, string>();

  /** A download URL the fake serves (for log redirects). */
  blob(name: string, text: string): string {
    const p = `/_blob/${name}`;
    this.blobs.set(p, text);
    return `${this.url}${p}`;
  }

  private checkRequest(
    operation: Operation,
    params: Record<string, string>,
    query: URLSearchParams,
    body: Json,
    raw: string,
  ): void {
    const where = `${operation.method} ${operation.template}`;
    const declared = (operation.op.parameters ?? []).map((x: Json) => this.api.deref(x));
    for (const prm of declared) {
      const value =
        prm.in === "path" ? params[prm.name] : prm.in === "query" ? query.get(prm.name) : undefined;
      if (value == null) {
        if (prm.required && prm.in !== "header")
          this.violations.push(`${where}: missing required ${prm.in} parameter ${prm.name}`);
        continue;
      }
      const v = this.api.validator(`param:${where}:${prm.name}`, prm.schema ?? {});
      if (!v(coerce(value, prm.schema)))
        this.violations.push(`${where}: parameter ${prm.name}=${value}: ${errText(v)}`);
    }
    for (const key of query.keys()) {
      if (!declared.some((d: Json) => d.in === "query" && d.name === key))
        this.violations.push(`${where}: undeclared query parameter ${key}`);
    }
    const rb = this.api.deref(operation.op.requestBody);
    if (!rb) {
      if (raw && raw !== "{}" && raw !== "null")
        this.violations.push(`${where}: sends a body GitHub does not take: ${raw}`);
      return;
    }
    const schema = rb.content?.["application/json"]?.schema;
    if (body === undefined) {
      if (rb.required) this.violations.push(`${where}: missing required body`);
      return;
    }
    if (schema) {
      const v = this.api.validator(`body:${where}`, schema);
      if (!v(body)) this.violations.push(`${where}: request body: ${errText(v)}`);
    }
  }

  private checkReply(operation: Operation, reply: FakeReply): void {
    const where = `${operation.method} ${operation.template}`;
    const status = reply.status ?? 200;
    if (reply.text !== undefined || status === 302 || status === 204 || status === 304) {
      if (!operation.op.responses[String(status)])
        this.violations.push(`${where}: GitHub never answers ${status}`);
      return;
    }
    const declared = this.api.deref(operation.op.responses[String(status)]);
    if (!declared && status < 400) {
      this.violations.push(`${where}: GitHub never answers ${status}`);
      return;
    }
    // Errors GitHub does not list for an operation (401, 5xx) still carry its basic error shape.
    const schema = declared?.content?.["application/json"]?.schema ?? {
      $ref: "#/components/schemas/basic-error",
    };
    const v = this.api.validator(`reply:${where}:${status}`, schema);
    if (!v(reply.body))
      this.violations.push(`${where}: reply ${status} does not match GitHub's schema: ${errText(v)}`);
  }

  private async handleGraphql(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: Json,
  ): Promise<void> {
    if (typeof body?.query !== "string") this.violations.push("POST /graphql: body has no query string");
    if (
      body?.variables !== undefined &&
      (typeof body.variables !== "object" || Array.isArray(body.variables))
    )
      this.violations.push("POST /graphql: variables must be an object");
    const fr: FakeRequest = {
      method: "POST",
      route: "/graphql",
      path: "/graphql",
      params: {},
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    this.requests.push(fr);
    const reply = this.graphqlHandler
      ? await this.graphqlHandler(fr)
      : { status: 200, body: { data: null, errors: [{ message: "no handler" }] } };
    this.send(res, reply);
    const vars = this.graphqlVariables;
    const schema = this.graphqlSchema;
    this.later(() => {
      if (vars && !vars(body?.variables)) this.violations.push(`POST /graphql: variables: ${errText(vars)}`);
      if (schema && (reply.status ?? 200) === 200 && !schema(reply.body))
        this.violations.push(`POST /graphql: reply does not match the schema: ${errText(schema)}`);
    });
  }

  private send(res: http.ServerResponse, reply: FakeReply): void {
    const status = reply.status ?? 200;
    const headers: Record<string, string> = {
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": "4999",
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      ...(reply.headers ?? {}),
    };
    if (reply.text !== undefined) {
      res.writeHead(status, { "content-type": "text/plain", ...headers });
      res.end(reply.text);
      return;
    }
    if (reply.body === undefined) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
    res.end(JSON.stringify(reply.body));
  }
}

/**
 * The server environment that points its GitHub client at `fake`, with a token. The client's timeout is long:
 * a loaded machine can take seconds to answer a loopback request, and only the timeout test (which sets its
 * own) may see one.
 */
export function fakeGitHubEnv(
  fake: FakeGitHub,
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    GITHUB_TOKEN: "test-token",
    GITHUB_API_URL: fake.url,
    HOME: home,
    MCPFS_GITHUB_TIMEOUT_MS: "60000",
    ...extra,
  };
}

/** After each test: waits for the fake's pending replies, then fails on any request or reply off the API. */
export function expectFakeClean(fake: FakeGitHub): void {
  afterEach(async () => {
    await fake.settled();
    const v = [...fake.violations];
    fake.reset();
    expect(v).toEqual([]);
  });
}
