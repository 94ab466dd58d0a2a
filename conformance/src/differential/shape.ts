// Schema-level comparison of two JSON answers: which fields exist and what
// type each holds, never the values. Array items are merged into one shape,
// so two lists of different lengths (or one empty) compare by their items.

export type Shape =
  | { t: "null" | "string" | "number" | "boolean" | "missing" }
  | { t: "array"; item?: Shape }
  | { t: "object"; fields: Record<string, Shape> };

export function shapeOf(v: unknown): Shape {
  if (v === null) return { t: "null" };
  if (v === undefined) return { t: "missing" };
  if (Array.isArray(v)) return { t: "array", item: v.length ? v.map(shapeOf).reduce(merge) : undefined };
  if (typeof v === "object")
    return {
      t: "object",
      fields: Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, shapeOf(x)])),
    };
  const t = typeof v;
  return { t: t === "string" || t === "number" || t === "boolean" ? t : "string" };
}

/** One shape covering both (object fields united; a field absent on one side stays as seen on the other). */
function merge(a: Shape, b: Shape): Shape {
  if (a.t === "object" && b.t === "object") {
    const fields: Record<string, Shape> = { ...a.fields };
    for (const [k, s] of Object.entries(b.fields)) fields[k] = fields[k] ? merge(fields[k], s) : s;
    return { t: "object", fields };
  }
  if (a.t === "array" && b.t === "array")
    return { t: "array", item: a.item && b.item ? merge(a.item, b.item) : (a.item ?? b.item) };
  // a nullable field seen both null and set: keep the set type
  if (a.t === "null") return b;
  return a;
}

const label = (s: Shape): string => (s.t === "array" ? "array" : s.t === "object" ? "object" : s.t);

/**
 * The places where two answers differ in shape, as `path: left → right`.
 * `null` matches any type (nullable fields hold values, not schemas); an
 * empty array matches any array.
 */
export function shapeDiff(a: unknown, b: unknown, limit = 20): string[] {
  const out: string[] = [];
  const walk = (x: Shape, y: Shape, path: string) => {
    if (out.length >= limit) return;
    // null against a value is a value of a nullable field, not a different schema
    if (x.t === "null" || y.t === "null") return;
    if (x.t !== y.t) {
      out.push(`${path || "(body)"}: ${label(x)} → ${label(y)}`);
      return;
    }
    if (x.t === "object" && y.t === "object") {
      for (const k of new Set([...Object.keys(x.fields), ...Object.keys(y.fields)]))
        walk(x.fields[k] ?? { t: "missing" }, y.fields[k] ?? { t: "missing" }, path ? `${path}.${k}` : k);
    } else if (x.t === "array" && y.t === "array" && x.item && y.item) walk(x.item, y.item, `${path}[]`);
  };
  walk(shapeOf(a), shapeOf(b), "");
  return out;
}

/** The error_code of an error body, if any. */
export function errorCodeOf(json: unknown): string | undefined {
  const c = (json as { error_code?: unknown } | undefined)?.error_code;
  return typeof c === "string" ? c : undefined;
}
