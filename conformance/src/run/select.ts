// Which checks of the registry this run applies, and why each of the others
// does not: the profile, a mock or validating-proxy target, operations the
// (scoped, served) contract lacks, keys not given.
import type { Contract } from "../contract.ts";
import { allChecks } from "../registry.ts";
import type { Check, Settings } from "../types.ts";

/** One check of the run: `skip` holds the reason it does not apply. */
export interface Selected {
  check: Check;
  skip?: string;
}

/** Which checks apply, and why the others do not. */
export function selectChecks(
  settings: Settings,
  contract: Contract,
  checks: Check[] = allChecks,
  notServed?: Map<string, string>,
): Selected[] {
  return checks
    .filter((c) => !settings.only || settings.only.includes(c.id))
    .map((check) => {
      const skip = whyNot(check, settings, contract, notServed);
      return skip === undefined ? { check } : { check, skip };
    });
}

function whyNot(
  check: Check,
  settings: Settings,
  contract: Contract,
  notServed: Map<string, string> | undefined,
): string | undefined {
  if (!check.profiles.includes(settings.profile)) return `not in profile ${settings.profile}`;
  if (settings.mock && !check.mock) return "needs a stateful deployment (not mock-applicable)";
  if (settings.validatingProxy && check.invalidRequests)
    return "sends contract-invalid requests, which a validating proxy answers itself";
  const missing = (check.requires ?? []).filter((k) => !contract.op(k));
  const unserved = missing.map((k) => notServed?.get(k)).find(Boolean);
  if (unserved) return unserved;
  if (missing.length) return `contract lacks ${missing.join(", ")}`;
  const keys = (check.keys ?? []).filter((k) => !settings.keys[k]);
  if (keys.length) return `no ${keys.map((k) => `--${k === "second" ? "second-seat" : k}-key`).join(", ")} given`;
  return undefined;
}
