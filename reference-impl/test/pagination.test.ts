import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidCursorError } from "../src/platform/errors.ts";
import { decodeCursor, encodeCursor, paginate, scopeHash, type SortKey } from "../src/platform/pagination.ts";
import { createDataset, makeApp } from "./helpers.ts";

const keyArb = fc.tuple(
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
  fc.string(),
);

describe("cursors", () => {
  it("round-trip any key, with or without base64 padding", () => {
    fc.assert(
      fc.property(keyArb, fc.jsonValue(), (key, scopeValue) => {
        const scope = scopeHash(scopeValue);
        const cursor = encodeCursor(key as SortKey, scope);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        const padded = cursor + "=".repeat((4 - (cursor.length % 4)) % 4);
        const expected = [Object.is(key[0], -0) ? 0 : key[0], key[1]];
        expect(decodeCursor(cursor, scope)).toEqual(expected);
        expect(decodeCursor(padded, scope)).toEqual(expected);
      }),
    );
  });

  it("are refused for another scope, and garbage is always invalid_cursor", () => {
    fc.assert(
      fc.property(keyArb, fc.string(), fc.string(), (key, a, b) => {
        fc.pre(a !== b);
        const cursor = encodeCursor(key as SortKey, scopeHash(a));
        expect(() => decodeCursor(cursor, scopeHash(b))).toThrow(InvalidCursorError);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (junk) => {
        try {
          decodeCursor(junk, scopeHash("x"));
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidCursorError);
        }
      }),
    );
  });

  it("keyset pages visit every kept row exactly once, in order, for any limit and order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.string({ minLength: 1, maxLength: 4 })), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 15 }),
        fc.constantFrom("asc" as const, "desc" as const),
        fc.integer({ min: 0, max: 3 }),
        (raw, limit, order, mod) => {
          const rows = [...new Map(raw.map(([v, id]) => [id, { v, id }])).values()];
          rows.sort((a, b) => (a.v !== b.v ? a.v - b.v : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          const keep = (r: { v: number }) => mod === 0 || r.v % (mod + 1) !== 0;
          const keyOf = (r: { v: number; id: string }): SortKey => [r.v, r.id];
          const expected = rows.filter(keep).map((r) => r.id);
          if (order === "desc") expected.reverse();
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let guard = 0; guard < 200; guard++) {
            const page = paginate(rows, keyOf, { limit, order, cursor, scope: { mod, order } }, keep);
            expect(page.items.length).toBeLessThanOrEqual(limit);
            seen.push(...page.items.map((r) => r.id));
            if (!page.hasNext) {
              expect(page.cursor).toBeNull();
              break;
            }
            expect(page.items.length).toBe(limit);
            cursor = page.cursor!;
          }
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});

describe("pagination over HTTP", () => {
  it("a cursor reused across a change of order or list is 400 invalid_cursor; padding is optional", async () => {
    const t = makeApp();
    for (let i = 0; i < 5; i++) {
      await createDataset(t, `d${i}`);
      await t.clock.advance(1);
    }
    const first = await t.call("GET", "/v1/datasets?limit=2");
    const cursor: string = first.json.cursor;
    const padded = cursor + "=".repeat((4 - (cursor.length % 4)) % 4);
    const a = await t.call("GET", `/v1/datasets?limit=2&cursor=${cursor}`);
    const b = await t.call("GET", `/v1/datasets?limit=2&cursor=${encodeURIComponent(padded)}`);
    expect(a.json.data.map((d: any) => d.name)).toEqual(["d2", "d1"]);
    expect(b.json.data).toEqual(a.json.data);
    // Changing the page size keeps the scope.
    expect((await t.call("GET", `/v1/datasets?limit=3&cursor=${cursor}`)).status).toBe(200);
    const flipped = await t.call("GET", `/v1/datasets?order=asc&cursor=${cursor}`);
    expect(flipped.status).toBe(400);
    expect(flipped.json).toEqual({
      status: "client_error",
      error_code: "invalid_cursor",
      detail: expect.any(String),
      transient: false,
    });
    for (const junk of ["nope", "!!!", "eyJ2IjoxfQ", "e30"]) {
      const res = await t.call("GET", `/v1/datasets?cursor=${junk}`);
      expect(res.status, junk).toBe(400);
      expect(res.json.error_code).toBe("invalid_cursor");
    }
    const usage = await t.call("GET", `/v1/me/usage_history?cursor=${cursor}`);
    expect(usage.json.error_code).toBe("invalid_cursor");
  });
});
