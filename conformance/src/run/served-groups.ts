// Before the checks: the key preflight, then the served-groups probe. An
// unserved group leaves the contract of this run before checks are selected,
// so the checks that need it report skipped with the probe's reason.
import type { Contract } from "../contract.ts";
import type { HttpClient } from "../http.ts";
import { preflight } from "../preflight.ts";
import { probeGroups, servedGroupsResult, withoutUnserved, type ServedGroups } from "../preflight-groups.ts";
import type { CheckResult, Settings } from "../types.ts";

export async function servedGroupsPreflight(
  settings: Settings,
  contract: Contract,
  client: HttpClient,
  log: ((line: string) => void) | undefined,
): Promise<{ servedGroups: ServedGroups; result: CheckResult }> {
  await preflight(settings, client);
  const t0 = Date.now();
  const before = client.requestCount;
  const servedGroups = await probeGroups(contract, client, settings);
  withoutUnserved(contract, servedGroups);
  const result = servedGroupsResult(
    servedGroups,
    !!settings.requireGroups,
    client.requestCount - before,
    Date.now() - t0,
  );
  for (const p of servedGroups.probes.filter((x) => !x.served))
    log?.(`${settings.requireGroups ? "FAIL" : "WARN"} served-groups: ${p.reason}`);
  return { servedGroups, result };
}
