// Preflight: before any check, make sure the run can mean something. The base
// URL answers and is not already suffixed with /v1, and every key
// authenticates and belongs to the account its role says (the foreign and
// poor keys on other accounts, the second seat on the same account as a
// different user). A problem here is a usage error: one line, exit 2.
import type { AccountMe } from "../../generated/client/types.gen.ts";
import type { HttpClient, KeyRole } from "./http.ts";
import { dataOf, isObject } from "./typed.ts";
import type { Settings } from "./types.ts";

export class UsageError extends Error {}

export interface Identity {
  role: KeyRole;
  userId?: string;
  accountId?: string;
}

const flagOf: Record<KeyRole, string> = {
  main: "--api-key",
  foreign: "--foreign-key",
  second: "--second-seat-key",
  poor: "--poor-key",
};

/** Checks of the base URL alone (no request). */
export function checkBaseUrl(baseUrl: string): void {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(baseUrl)} is not a URL (expected e.g. http://127.0.0.1:3000)`);
  }
  if (!/^https?:$/.test(u.protocol)) throw new UsageError(`--base-url must be http or https, not ${u.protocol}`);
  if (/\/v\d+\/?$/.test(u.pathname))
    throw new UsageError(
      `--base-url ends with ${u.pathname.replace(/\/$/, "")}: give the deployment root (paths start with /v1), e.g. ${u.origin}${u.pathname.replace(/\/v\d+\/?$/, "")}`,
    );
  if (u.search || u.hash) throw new UsageError("--base-url must not carry a query or fragment");
}

/** One GET /v1/me per configured key; throws UsageError with one clear line. */
export async function preflight(settings: Settings, client: HttpClient): Promise<Identity[]> {
  checkBaseUrl(settings.baseUrl);
  const prev = client.currentCheck;
  client.currentCheck = "(preflight)";
  try {
    const ids: Identity[] = [];
    for (const role of ["main", "second", "foreign", "poor"] as KeyRole[]) {
      if (!settings.keys[role]) continue;
      let ex;
      try {
        ex = await meWithRetry(client, role);
      } catch (e) {
        throw new UsageError(`${settings.baseUrl} does not answer: ${(e as Error).message.replace(/^GET \S+: /, "")}`);
      }
      if (ex.status === 401)
        throw new UsageError(`${flagOf[role]} is not accepted by ${settings.baseUrl} (GET /v1/me answered 401)`);
      if (ex.status === 404 && role === "main")
        throw new UsageError(
          `${settings.baseUrl}/v1/me answered 404: is this the deployment root of the Social Listening API?`,
        );
      const d = dataOf<AccountMe>(ex);
      if (ex.status !== 200 || typeof d?.account_id !== "string")
        throw new UsageError(
          `GET /v1/me with ${flagOf[role]} answered ${ex.status} without an account_id; cannot tell which account the key belongs to`,
        );
      ids.push({ role, userId: d.id, accountId: d.account_id });
    }
    const main = ids.find((i) => i.role === "main")!;
    for (const i of ids) {
      if ((i.role === "foreign" || i.role === "poor") && i.accountId === main.accountId)
        throw new UsageError(
          `${flagOf[i.role]} belongs to the account under test (${main.accountId}); it must be a key of another account`,
        );
      if (i.role === "second" && i.accountId !== main.accountId)
        throw new UsageError(
          `--second-seat-key belongs to account ${i.accountId}, not to the account under test (${main.accountId})`,
        );
      if (i.role === "second" && i.userId === main.userId)
        throw new UsageError(
          `--second-seat-key is a key of the same seat as --api-key (${main.userId}); give a key of another seat`,
        );
    }
    return ids;
  } finally {
    client.currentCheck = prev;
  }
}

/** Answers a deployment may give a sound GET /v1/me now and then: a 429, or a 5xx whose body says `transient: true`. */
function passing(ex: { status: number; json?: unknown }): boolean {
  return ex.status === 429 || (ex.status >= 500 && isObject(ex.json) && ex.json.transient === true);
}

/**
 * GET /v1/me, asked again (at most twice, after Retry-After or one second) when the answer is one the seed
 * says may pass: a transient fault at the very start (a development backend injecting faults, a busy
 * deployment) should not end the run as a usage error. Anything else is judged at once.
 */
async function meWithRetry(client: HttpClient, role: KeyRole) {
  let ex = await client.request({ method: "GET", path: "/v1/me", key: role });
  for (let attempt = 0; attempt < 2 && passing(ex); attempt++) {
    const wait = Math.min(5, Math.max(1, Number(ex.headers?.["retry-after"]) || 1));
    await new Promise((r) => setTimeout(r, wait * 1000));
    ex = await client.request({ method: "GET", path: "/v1/me", key: role });
  }
  return ex;
}
