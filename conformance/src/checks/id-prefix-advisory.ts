import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import type { Contract } from "../contract.ts";
import { groupsOf } from "../groups/index.ts";
import { bodyOf, isObject } from "../typed.ts";

/** Path pattern → documented prefix, from the group descriptors (which read the prefixes from the contract's id descriptions). */
function prefixTable(contract: Contract): Array<[RegExp, string[]]> {
  const rows: Array<[string, string[]]> = [];
  for (const g of groupsOf(contract)) {
    if (g.run?.idPrefix) {
      // D-ID-PREFIX: dataset runs are documented `dsr_`, one seed endpoint says `dr_`
      const alt = g.run.idPrefix === "dsr_" ? ["dsr_", "dr_"] : [g.run.idPrefix];
      for (const op of [g.run.readOp, g.run.listOp, g.run.createOp])
        if (op && op.path !== g.base) rows.push([op.path, alt]);
    }
    if (g.idPrefix)
      for (const op of [g.ops.read, g.ops.list, g.ops.create, g.ops.update])
        if (op && !rows.some(([p]) => p === op.path)) rows.push([op.path, [g.idPrefix]]);
  }
  return rows.map(([p, prefixes]) => [new RegExp("^" + p.replace(/\{[^}]+\}/g, "[^/]+") + "$"), prefixes]);
}

export default defineCheck({
  id: "id-prefix-advisory",
  rule: "Resource ids carry their documented prefix (advisory: a mismatch is a warning only)",
  section: "Resources › Conventions › Id prefixes",
  severity: "advisory",
  // the seed names prefixes but also calls ids opaque (unsettled row conventions.id-prefixes): a warning only
  asserts: { prefix: decided("D-ID-PREFIX") },
  mock: true,
  inspect(ex, ctx) {
    // any success envelope: one resource or a list of them in `data`
    const body = bodyOf<{ data: unknown }>(ex);
    if (ex.status < 200 || ex.status >= 300 || !body) return;
    const rule = prefixTable(ctx.contract).find(([re]) => re.test(ex.path.split("?")[0]));
    if (!rule) return;
    const items: unknown[] = Array.isArray(body.data) ? body.data : [body.data];
    for (const it of items) {
      const id = isObject(it) ? it.id : undefined;
      if (typeof id === "string" && !rule[1].some((p) => id.startsWith(p))) {
        ctx.lenient("D-ID-PREFIX", ex);
        ctx.warn(`id ${id} lacks prefix ${rule[1].join(" or ")}`, ex);
        return;
      }
    }
    ctx.pass(ex);
  },
});
