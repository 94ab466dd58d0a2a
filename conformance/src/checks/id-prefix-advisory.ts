import type { ResponseCheck } from "../types.ts";
import { isObj } from "./_util.ts";

// Id prefixes are advisory (ids are opaque): a mismatch is a warning, never a failure.
const PREFIX: Array<[RegExp, string[]]> = [
  [/^\/v1\/datasets\/[^/]+\/runs/, ["dsr_", "dr_"]],
  [/^\/v1\/datasets/, ["ds_"]],
  [/^\/v1\/audience_datasets\/[^/]+\/runs/, ["adr_"]],
  [/^\/v1\/audience_datasets/, ["ad_"]],
  [/^\/v1\/custom_parameters\/[^/]+\/runs/, ["cpr_"]],
  [/^\/v1\/custom_parameters/, ["cp_"]],
  [/^\/v1\/tracking_agents\/[^/]+\/trigger/, ["tar_"]],
  [/^\/v1\/tracking_agents\/[^/]+\/messages/, ["tam_"]],
  [/^\/v1\/tracking_agents/, ["ta_"]],
];

const check: ResponseCheck = {
  kind: "response",
  id: "id-prefix-advisory",
  rule: "Resource ids carry their documented prefix (advisory: a mismatch is a warning only)",
  section: "Resources › Conventions › Id prefixes; decision D-ID-PREFIX (advisory)",
  severity: "advisory",
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 200 || ex.status >= 300 || !isObj(ex.json)) return;
    const rule = PREFIX.find(([re]) => re.test(ex.path.split("?")[0]));
    if (!rule) return;
    const items = Array.isArray(ex.json.data) ? ex.json.data : [ex.json.data];
    for (const it of items) {
      if (isObj(it) && typeof it.id === "string" && !rule[1].some((p) => it.id.startsWith(p))) {
        ctx.warn(`id-prefix-advisory: id ${it.id} lacks prefix ${rule[1].join(" or ")}`, ex);
        return;
      }
    }
    ctx.pass(ex);
  },
};
export default check;
