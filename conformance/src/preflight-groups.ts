// Served-groups preflight: before the checks, one cheap probe per resource
// group tells which groups the deployment serves. An unserved group becomes
// one finding, its operations leave the contract of this run, and the checks
// that need them report skipped with that reason (decision D-KIT-SERVED-GROUPS).
import type { Contract, Operation } from "./contract.ts";
import { groupSpecs } from "./groups/index.ts";
import { describe } from "./groups/derive.ts";
import type { Group } from "./groups/types.ts";
import { TransportError, type Exchange, type HttpClient, type RequestOptions } from "./http.ts";
import type { CheckResult } from "./types.ts";

/** A path no contract serves: its answer is this deployment's "route not served". */
export const CONTROL_PATH = "/v1/slk-unserved-route-probe";
/** An id no deployment issues: a served item read answers a 404 in the error envelope. */
const MISSING_ID = "slk-probe-missing-0";

export interface GroupProbe {
  group: string;
  title: string;
  /** `GET /v1/datasets?limit=1` */
  request: string;
  status?: number;
  errorCode?: string | null;
  served: boolean;
  /** why the verdict (one line) */
  reason: string;
  /** the operations of the group (`METHOD /path`) */
  operations: string[];
}

export interface ServedGroups {
  control?: { status: number; errorCode: string | null; json: boolean };
  probes: GroupProbe[];
  /** operation key → the reason its group is not served */
  notServed: Map<string, string>;
}

type Fingerprint = { status: number; errorCode: string | null; json: boolean };

function fingerprint(ex: Exchange): Fingerprint {
  const code = (ex.json as { error_code?: unknown } | undefined)?.error_code;
  return {
    status: ex.status,
    errorCode: typeof code === "string" ? code : null,
    json: ex.jsonError === undefined && ex.text.length > 0,
  };
}

const GENERIC_404 = "not_found";

/**
 * The probe of one group, cheapest first: a list GET (a served list never
 * answers 404), else a POST whose body is a JSON array where an object is
 * required (a served route refuses it as malformed — 400 or 422 — before any
 * work, so nothing is created or charged, and an unserved one answers 404),
 * else a GET of an item with an id nobody issues (a served route answers a
 * 404 in the error envelope).
 */
export function probeFor(g: Group): { kind: "list" | "item" | "post"; req: RequestOptions; op: Operation } | undefined {
  if (g.ops.list && !g.ops.list.params.some((p) => p.in === "path")) {
    const limit = g.ops.list.params.some((p) => p.in === "query" && p.name === "limit");
    return { kind: "list", op: g.ops.list, req: { method: "GET", path: g.ops.list.path + (limit ? "?limit=1" : "") } };
  }
  const post = g.ops.all.find((o) => o.method === "POST" && !o.path.includes("{"));
  if (post) return { kind: "post", op: post, req: { method: "POST", path: post.path, rawBody: "[]" } };
  const get = g.ops.read?.path.includes("{") ? g.ops.read : g.ops.all.find((o) => o.method === "GET");
  if (!get) return undefined;
  const req = { method: "GET", path: get.path.replace(/\{[^}]+\}/g, MISSING_ID) };
  return { kind: get.path.includes("{") ? "item" : "list", op: get, req };
}

/**
 * The rule (D-KIT-SERVED-GROUPS): a group is not served only when its routes
 * do not exist: its probe answers 405 or 501; or a list or a malformed POST
 * (whose path holds no id) answers 404 without one of the group's own
 * not-found codes; or an item GET answers a 404 that is not the error
 * envelope (no JSON, no `error_code`: a server's own "no such route" page).
 * A 404 in the error envelope on an id path is a route saying it has no such
 * resource, whatever its code: the group is served, and its checks judge
 * the code. Anything else — 2xx, 400, 401, 402, 409, 422, 429, 5xx — shows
 * the route exists. A probe that gets no answer leaves the group served: its
 * checks then report what they see, nothing is hidden.
 */
export function judgeProbe(
  g: Group,
  kind: "list" | "item" | "post",
  fp: Fingerprint,
  control: Fingerprint | undefined,
): { served: boolean; why: string } {
  const own = [...g.notFound, ...(g.run?.notFound ?? [])].filter((c) => c !== GENERIC_404);
  const body = fp.json ? (fp.errorCode ? `error_code ${fp.errorCode}` : "JSON without error_code") : "no JSON body";
  if (fp.status === 405 || fp.status === 501) return { served: false, why: `${fp.status} (${body})` };
  if (fp.status !== 404) return { served: true, why: `${fp.status}` };
  if (kind === "item" && fp.json && fp.errorCode)
    return { served: true, why: `404 in the error envelope (${body}) on an id path` };
  if (kind !== "item" && fp.errorCode && own.includes(fp.errorCode))
    return { served: true, why: `404 with the group's own ${fp.errorCode}` };
  const likeControl =
    control && control.status === fp.status && control.errorCode === fp.errorCode && control.json === fp.json;
  return { served: false, why: `404 (${body})${likeControl ? `, as the unserved ${CONTROL_PATH}` : ""}` };
}

/**
 * Probe every group the (scoped) contract holds. A stateless mock serves every
 * route of its document, so it is not probed; behind a validating proxy the
 * proxy itself answers a request outside the contract, so neither the control
 * path nor a malformed POST can tell anything there (those groups stay served).
 */
export async function probeGroups(
  contract: Contract,
  client: HttpClient,
  target: { mock?: boolean; validatingProxy?: boolean } = {},
): Promise<ServedGroups> {
  const out: ServedGroups = { probes: [], notServed: new Map() };
  if (target.mock) return out;
  const prev = client.currentCheck;
  client.currentCheck = "(served-groups)";
  try {
    if (!target.validatingProxy) {
      try {
        out.control = fingerprint(
          await client.request({ method: "GET", path: CONTROL_PATH, meta: { groupProbe: true } }),
        );
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
      }
    }
    for (const spec of groupSpecs) {
      const g = describe(spec, contract);
      if (!g.served) continue;
      const probe = probeFor(g);
      const operations = g.ops.all.map((o) => o.key);
      if (!probe) continue;
      const request = `${probe.req.method} ${probe.req.path}`;
      if (probe.kind === "post" && target.validatingProxy) {
        out.probes.push({
          group: g.id,
          title: g.title,
          request,
          served: true,
          reason: `not probed: behind a validating proxy the proxy answers ${request} with a malformed body itself`,
          operations,
        });
        continue;
      }
      let ex: Exchange;
      try {
        ex = await client.request({ ...probe.req, meta: { groupProbe: true } });
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        out.probes.push({
          group: g.id,
          title: g.title,
          request,
          served: true,
          reason: `no answer (${e.detail}); kept, its checks report what they see`,
          operations,
        });
        continue;
      }
      const fp = fingerprint(ex);
      const { served, why } = judgeProbe(g, probe.kind, fp, out.control);
      const p: GroupProbe = {
        group: g.id,
        title: g.title,
        request,
        status: fp.status,
        errorCode: fp.errorCode,
        served,
        reason: served ? `served: ${request} answered ${why}` : `group ${g.id} not served: ${why} on ${request}`,
        operations,
      };
      out.probes.push(p);
      if (!served) for (const op of operations) out.notServed.set(op, p.reason);
    }
  } finally {
    client.currentCheck = prev;
  }
  return out;
}

/** Leave the operations of unserved groups out of this run's contract (as `--operations` would). */
export function withoutUnserved(contract: Contract, served: ServedGroups): void {
  if (!served.notServed.size) return;
  contract.restrict(contract.operations.filter((o) => !served.notServed.has(o.key)).map((o) => o.operationId));
}

/** The preflight's one result row: pass when every group answers; one finding per unserved group. */
export function servedGroupsResult(
  served: ServedGroups,
  requireGroups: boolean,
  requests: number,
  ms: number,
): CheckResult {
  const missing = served.probes.filter((p) => !p.served);
  const sent = served.probes.filter((p) => !p.reason.startsWith("not probed"));
  const result: CheckResult = {
    id: "served-groups",
    outcome: "pass",
    failures: [],
    warnings: [],
    ms,
    requests,
    exercised: sent.length,
    unexercised: served.probes.filter((p) => !sent.includes(p)).map((p) => `${p.group}: ${p.reason}`),
  };
  for (const p of missing) {
    const line = `${p.reason}; its ${p.operations.length} operation(s) are left out of this run and their checks skipped`;
    if (requireGroups)
      result.failures.push({
        check: "served-groups",
        title: `served-groups: ${p.reason}`,
        message: line,
        operation: p.request,
        status: p.status,
        expected: "the group is served (--require-groups)",
      });
    else result.warnings.push(`${line} (--require-groups makes this a failure)`);
  }
  if (result.failures.length) result.outcome = "fail";
  if (!sent.length) {
    result.outcome = "skip";
    result.skipReason = served.probes.length
      ? "no group probed"
      : "no group probed (a stateless mock serves every route of its document)";
  }
  return result;
}
