import type { ResponseCheck } from "../types.ts";

/** Dollar amounts are JSON numbers with at most six fractional digits (exact decimals printed). */
function amounts(path: string, body: any): Array<[string, unknown]> {
  const d = body?.data;
  if (path === "/v1/me") return ["balance", "balance_used", "balance_total"].map((k) => [`usage.${k}`, d?.usage?.[k]]);
  if (path === "/v1/prices") return [["rate", d?.rate], ...Object.entries(d?.prices ?? {}).map(([k, v]) => [`prices.${k}`, v] as [string, unknown])];
  if (path === "/v1/me/usage_history" && Array.isArray(d)) return d.map((r: any, i: number) => [`data[${i}].quantity`, r?.quantity]);
  return [];
}

const check: ResponseCheck = {
  kind: "response",
  id: "money-six-decimals",
  rule: "Balances, prices and usage quantities are JSON numbers with at most 6 fractional digits (never binary-float noise such as 0.30000000000000004)",
  section: "Resources › Prices (exact small decimals); decision D-MONEY-NUMBER",
  severity: "major",
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status !== 200 || !ex.op) return;
    const list = amounts(ex.op.path, ex.json);
    if (!list.length) return;
    const bad = list.filter(([, v]) => v !== null && v !== undefined && !(typeof v === "number" && /^-?\d+(\.\d{1,6})?$/.test(String(v))));
    if (bad.length) return ctx.fail(ex, { title: `money-six-decimals: ${bad.map(([k]) => k).join(", ")} not an exact 6-decimal number`, received: Object.fromEntries(bad), expected: "numbers with at most 6 fractional digits" });
    ctx.pass(ex);
  },
};
export default check;
