import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { allowedHostnames, bearerMatcher, bindRefusal, isLoopbackHost } from "./http-guard.js";

describe("bind policy", () => {
  it("knows loopback addresses", () => {
    for (const h of [
      "127.0.0.1",
      "127.0.0.2",
      "127.255.0.9",
      "localhost",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
    ])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      "0.0.0.0",
      "::",
      "192.168.1.10",
      "10.0.0.1",
      "example.com",
      "128.0.0.1",
      "::ffff:10.0.0.1",
    ])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it("refuses a non-loopback bind without a (long enough) token, accepts loopback without one", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "example.com"]) {
      expect(bindRefusal({ host, port: 1 }), host).toMatch(
        /refusing to serve HTTP on .* without a bearer token/,
      );
      expect(bindRefusal({ host, port: 1, authToken: "short" }), host).toMatch(/at least 16 characters/);
      expect(bindRefusal({ host, port: 1, authToken: "a-long-enough-secret-token" }), host).toBeUndefined();
    }
    for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
      expect(bindRefusal({ host, port: 1 }), host).toBeUndefined();
    expect(bindRefusal({ host: "127.0.0.1", port: 1, authToken: "  " })).toMatch(/empty/);
  });

  it("allows the loopback names plus the bind address as Host", () => {
    expect(allowedHostnames("127.0.0.2")).toEqual(["localhost", "127.0.0.1", "[::1]", "127.0.0.2"]);
    expect(allowedHostnames("::1")).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });
});

describe("bearer check", () => {
  const check = bearerMatcher("s3cret-token-value");
  const req = (authorization?: string) =>
    ({ headers: authorization ? { authorization } : {} }) as IncomingMessage;
  it("accepts only the exact token, case-insensitive scheme", () => {
    expect(check(req("Bearer s3cret-token-value"))).toBe("ok");
    expect(check(req("bearer s3cret-token-value"))).toBe("ok");
    expect(check(req("Bearer s3cret-token-valuE"))).toBe("invalid");
    expect(check(req("Bearer s3cret-token-value-and-more"))).toBe("invalid");
    expect(check(req("Basic czNjcmV0"))).toBe("missing");
    expect(check(req())).toBe("missing");
  });
});
