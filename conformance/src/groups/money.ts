// The money-field table, derived from the contract: every place a 2xx body
// carries a `Common.Dollars` value (D-MONEY-NUMBER), as a path such as
// `data.usage.balance` or `data[].quantity`. New money fields are checked as
// soon as the contract is regenerated.
import type { Contract, JsonSchema, Operation } from "../contract.ts";

const DOLLARS = "#/components/schemas/Common.Dollars";
const memo = new WeakMap<Contract, Map<string, string[]>>();

function walk(
  contract: Contract,
  node: JsonSchema | undefined,
  path: string,
  out: Set<string>,
  depth: number,
  seen: Set<string>,
): void {
  if (!node || typeof node !== "object" || depth > 10) return;
  if (node.$ref === DOLLARS) {
    out.add(path);
    return;
  }
  if (typeof node.$ref === "string") {
    if (seen.has(node.$ref)) return; // recursive models
    const next = new Set(seen).add(node.$ref);
    const { $ref: _r, ...rest } = node;
    walk(contract, { ...contract.deref<JsonSchema>({ $ref: node.$ref }), ...rest }, path, out, depth + 1, next);
    return;
  }
  for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
    walk(contract, alt, path, out, depth + 1, seen);
  for (const [k, v] of Object.entries(node.properties ?? {}))
    walk(contract, v, path ? `${path}.${k}` : k, out, depth + 1, seen);
  if (node.items) walk(contract, node.items, `${path}[]`, out, depth + 1, seen);
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    walk(contract, node.additionalProperties, `${path}.*`, out, depth + 1, seen);
}

/** Operation key → money paths of its 2xx bodies. */
export function moneyFields(contract: Contract): Map<string, string[]> {
  let table = memo.get(contract);
  if (table) return table;
  table = new Map();
  for (const op of contract.operations) {
    const out = new Set<string>();
    for (const [status, r] of Object.entries(op.responsesRaw)) {
      if (!/^2/.test(status)) continue;
      walk(contract, contract.deref(r)?.content?.["application/json"]?.schema, "", out, 0, new Set());
    }
    if (out.size) table.set(op.key, [...out].sort());
  }
  memo.set(contract, table);
  return table;
}

/** The values at one money path of a body (`data[].quantity` yields one per row), labelled with their concrete path. */
export function valuesAt(body: unknown, path: string): Array<[string, unknown]> {
  let cur: Array<[string, unknown]> = [["", body]];
  for (const part of path.split(".")) {
    const arr = part.endsWith("[]");
    const key = arr ? part.slice(0, -2) : part;
    const next: Array<[string, unknown]> = [];
    for (const [p, v] of cur) {
      if (v === null || typeof v !== "object") continue;
      const children: Array<[string, unknown]> =
        key === "*"
          ? Object.entries(v as object).map(([k, x]) => [`${p}.${k}`, x])
          : [[p ? `${p}.${key}` : key, (v as Record<string, unknown>)[key]]];
      for (const [cp, cv] of children) {
        if (arr) (Array.isArray(cv) ? cv : []).forEach((x, i) => next.push([`${cp}[${i}]`, x]));
        else next.push([cp, cv]);
      }
    }
    cur = next;
  }
  return cur.filter(([, v]) => v !== undefined);
}

export function moneyPathsOf(contract: Contract, op: Operation | undefined): string[] {
  return op ? (moneyFields(contract).get(op.key) ?? []) : [];
}
