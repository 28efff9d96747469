/**
 * The shallow JSON tree (notebook edits find cell spans with it) against jsonc-parser's full tree: over
 * random objects with strings full of quotes and backslashes, at every indentation, the members and the
 * expanded array's elements have the same types, offsets and lengths.
 */
import fc from "fast-check";
import { type Node, parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { shallowTree } from "./json-shallow.js";

const span = (n: Node | undefined) => n && { type: n.type, offset: n.offset, length: n.length };
const members = (root: Node) =>
  (root.children ?? []).map((p) => ({
    key: p.children![0]!.value,
    prop: span(p),
    colon: p.colonOffset,
    value: span(p.children![1]),
  }));

describe("shallowTree", () => {
  it("finds the spans jsonc-parser finds", () => {
    const str = fc.string({ unit: fc.constantFrom("a", '"', "\\", "{", "]", ",", " ", "\n", "é") });
    const value = fc.oneof(
      str,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const doc = fc.record({
      before: fc.dictionary(str, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
      cells: fc.array(fc.oneof(value, fc.jsonValue({ maxDepth: 3 })), { maxLength: 6 }),
      indent: fc.constantFrom(0, 1, 2, "\t"),
    });
    fc.assert(
      fc.property(doc, ({ before, cells, indent }) => {
        const text = JSON.stringify({ ...before, cells }, null, indent);
        const full = parseTree(text)!;
        const shallow = shallowTree(text, "cells")!;
        expect(span(shallow)).toEqual(span(full));
        expect(members(shallow)).toEqual(members(full));
        const at = (root: Node) =>
          root.children!.find((p) => p.children![0]!.value === "cells")!.children![1]!;
        expect(at(shallow).children!.map(span)).toEqual(at(full).children!.map(span));
      }),
      { numRuns: 300 },
    );
  });

  it("is undefined for a top-level key twice or a text that is not an object", () => {
    expect(shallowTree('{"cells": [], "cells": [1]}', "cells")).toBeUndefined();
    expect(shallowTree("[1, 2]", "cells")).toBeUndefined();
  });
});
