// Robustness, contract side: every request string and array is bounded
// (D-BOUND-STRINGS, D-BOUND-ARRAYS), dates are real dates (D-BOUND-DATE), the
// document pins no origin, mock-facing examples are believable (first request
// example succeeds, 422 examples name real fields, rate-limit headers have
// sane values), and bodies over the limit or of the wrong media type have
// documented answers.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { zCommonCalendarDate, zMentionsSearchBody } from "../../generated/client/zod.gen.ts";
import { deref, loadDocument, operationsOf, type Json } from "./document.js";

const doc = loadDocument();
const operations = operationsOf(doc);

/**
 * Arrays that JSON Schema cannot bound from TypeSpec: the inner filter groups
 * of the two MCP search tools are anonymous nested arrays (Decision
 * D-MCP-FILTER-GROUPS); the server caps each group at 10 filters.
 */
const UNBOUNDED_BY_DECISION = [/^Mcp\.ListMentionsArgs\.filters\[\]$/, /^Mcp\.ListAudienceProfilesArgs\.filters\[\]$/];

/** Every unbounded string or array reachable from a schema, as readable paths. */
function unbounded(schema: Json, path: string, seen = new Set<string>(), out: string[] = []): string[] {
  if (!schema || typeof schema !== "object") return out;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop();
    if (seen.has(name)) return out;
    return unbounded(deref(doc, schema), path, new Set([...seen, name]), out);
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) for (const part of schema[key] ?? []) unbounded(part, path, seen, out);
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const fixed = Array.isArray(schema.enum) || "const" in schema;
  if (types.includes("string") && !fixed && schema.maxLength === undefined) out.push(`string ${path}`);
  if (types.includes("array")) {
    if (schema.maxItems === undefined && !UNBOUNDED_BY_DECISION.some((re) => re.test(path))) out.push(`array ${path}`);
    unbounded(schema.items, `${path}[]`, seen, out);
  }
  for (const [name, prop] of Object.entries<Json>(schema.properties ?? {}))
    unbounded(prop, `${path}.${name}`, seen, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    unbounded(schema.additionalProperties, `${path}{}`, seen, out);
  }
  return out;
}

function parameters(op: Json): Json[] {
  return (op.parameters ?? []).map((p: Json) => deref(doc, p));
}

describe("bounded input (D-BOUND-STRINGS, D-BOUND-ARRAYS)", () => {
  it("gives every request string a maxLength and every request array a maxItems", () => {
    const found: string[] = [];
    for (const { method, path, operation } of operations) {
      for (const p of parameters(operation))
        unbounded(p.schema, `${method} ${path} ${p.in}:${p.name}`, new Set(), found);
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      if (body) unbounded(body, `${method} ${path} body`, new Set(), found);
    }
    expect(found).toEqual([]);
  });

  it("bounds every MCP tool argument the same way", () => {
    const found: string[] = [];
    for (const name of Object.keys(doc.components.schemas).filter((n) => /^Mcp\..*Args$/.test(n))) {
      unbounded(doc.components.schemas[name], name, new Set([name]), found);
    }
    expect(found).toEqual([]);
  });

  it("refuses costly inputs (a huge query, a huge keyword, long arrays) in the generated zod", () => {
    expect(zMentionsSearchBody.safeParse({ q: "oat milk ".repeat(116_000) }).success).toBe(false);
    const longWord = { filters: [[{ type: "keyword", operator: "is", value: "x".repeat(1 << 20) }]] };
    expect(zMentionsSearchBody.safeParse(longWord).success).toBe(false);
    expect(
      zMentionsSearchBody.safeParse({ dataset_ids: Array.from({ length: 101 }, (_, i) => `ds_${i}`) }).success,
    ).toBe(false);
    expect(zMentionsSearchBody.safeParse({ q: "oat milk", dataset_ids: ["ds_1"] }).success).toBe(true);
  });
});

describe("calendar dates (D-BOUND-DATE)", () => {
  it("are format: date, so generated clients refuse impossible dates", () => {
    expect(doc.components.schemas["Common.CalendarDate"].format).toBe("date");
    expect(zCommonCalendarDate.safeParse("2026-02-30").success).toBe(false);
    expect(zCommonCalendarDate.safeParse("2028-02-29").success).toBe(true);
    expect(zCommonCalendarDate.safeParse("2026-10-01").success).toBe(true);
  });
});

describe("origin (D-SERVERS)", () => {
  it("names no fixed host: the server entry is relative", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("bakes no base URL into the generated client", () => {
    const source = readFileSync(new URL("../../generated/client/client.gen.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/baseUrl:\s*'http/);
  });
});

describe("examples a mock or a tool sends first", () => {
  it("puts a success example first among each operation's request examples", () => {
    const bad: string[] = [];
    for (const { method, path, operation } of operations) {
      const examples = operation.requestBody?.content?.["application/json"]?.examples;
      if (!examples) continue;
      const first = Object.keys(examples)[0]!;
      const successTitles = Object.entries<Json>(operation.responses)
        .filter(([status]) => status.startsWith("2"))
        .flatMap(([, r]) => Object.keys(deref(doc, r)?.content?.["application/json"]?.examples ?? {}));
      const errorTitles = Object.entries<Json>(operation.responses)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([, r]) => Object.keys(deref(doc, r)?.content?.["application/json"]?.examples ?? {}));
      if (errorTitles.includes(first) && !successTitles.includes(first)) bad.push(`${method} ${path}: "${first}"`);
    }
    expect(bad).toEqual([]);
  });

  it("points every 422 validation example at a field the operation has", () => {
    const bad: string[] = [];
    for (const { method, path, operation } of operations) {
      const r = deref(doc, operation.responses?.["422"]);
      const examples = Object.values<Json>(r?.content?.["application/json"]?.examples ?? {});
      const named = [deref(doc, r?.content?.["application/json"]?.schema)?.examples ?? []].flat();
      for (const value of [...examples.map((e) => e.value), ...named]) {
        for (const issue of value?.detail ?? []) {
          if (!Array.isArray(issue?.loc)) continue;
          const [where, field] = issue.loc as string[];
          const ok =
            where === "body"
              ? field === undefined || field in (bodyProperties(operation) ?? {})
              : parameters(operation).some((p) => p.in === where && p.name === field);
          if (!ok) bad.push(`${method} ${path}: ${issue.loc.join(".")}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it("gives the rate-limit headers bounds and examples (no -2147483648 from a mock)", () => {
    for (const name of ["RateLimitCap", "RateLimitRemainingCount", "RateLimitResetSeconds", "RetryAfterSeconds"]) {
      const s = doc.components.schemas[`Common.${name}`];
      expect(s.minimum, name).toBeGreaterThanOrEqual(0);
      expect(s.examples?.length, name).toBeGreaterThan(0);
    }
    expect(doc.components.schemas["Common.RetryAfterSeconds"].minimum).toBe(1);
  });

  it("gives every path parameter an example", () => {
    const missing: string[] = [];
    for (const { method, path, operation } of operations) {
      for (const p of parameters(operation).filter((x) => x.in === "path")) {
        const schema = deref(doc, p.schema);
        if (p.example === undefined && !p.examples && !schema?.examples?.length && schema?.example === undefined) {
          missing.push(`${method} ${path} ${p.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("bodies over the limit or of the wrong media type (D-BODY-LIMIT, D-CONTENT-TYPE)", () => {
  it("documents 413 payload_too_large and 415 unsupported_media_type wherever a body is read", () => {
    for (const { method, path, operation } of operations.filter((o) => o.operation.requestBody)) {
      const codes = (status: string) => {
        const schema = deref(doc, operation.responses?.[status])?.content?.["application/json"]?.schema;
        return deref(doc, deref(doc, schema)?.properties?.error_code);
      };
      expect(codes("413")?.const ?? codes("413")?.enum?.[0], `${method} ${path}`).toBe("payload_too_large");
      expect(codes("415")?.const ?? codes("415")?.enum?.[0], `${method} ${path}`).toBe("unsupported_media_type");
    }
  });

  it("marks a body required only when the server refuses an empty one", () => {
    // Both answer an empty body as the empty object (the seed: an empty PATCH is a no-op).
    for (const [method, path] of [
      ["post", "/v1/mentions"],
      ["patch", "/v1/datasets/{dataset_id}"],
    ] as const) {
      expect(doc.paths[path][method].requestBody?.required ?? false, `${method} ${path}`).toBe(false);
    }
  });
});

function bodyProperties(operation: Json): Record<string, unknown> | undefined {
  const collect = (schema: Json, acc: Record<string, unknown>) => {
    const s = deref(doc, schema);
    if (!s) return acc;
    for (const key of ["anyOf", "oneOf", "allOf"]) for (const part of s[key] ?? []) collect(part, acc);
    Object.assign(acc, s.properties ?? {});
    return acc;
  };
  const schema = operation.requestBody?.content?.["application/json"]?.schema;
  return schema ? collect(schema, {}) : undefined;
}

describe("npm run mock -- --port N", () => {
  it("serves on the port given on the command line, with believable rate-limit headers", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["scripts/mock.mjs", "--port", String(port)], {
      cwd: fileURLToPath(new URL("../../", import.meta.url)),
      stdio: "ignore",
    });
    try {
      let res: Response | undefined;
      for (let i = 0; i < 120 && !res; i++) {
        res = await fetch(`http://127.0.0.1:${port}/v1/prices`, { headers: { "x-api-key": "any" } }).catch(
          () => undefined,
        );
        if (!res) await new Promise((r) => setTimeout(r, 250));
      }
      expect(res?.status).toBe(200);
      expect(Number(res!.headers.get("ratelimit-limit"))).toBeGreaterThanOrEqual(1);
      expect(Number(res!.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
      expect([0, 1]).toContain(Number(res!.headers.get("ratelimit-reset")));
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
