// `x-api-key` -> (account, seat). Missing or unknown keys answer 401, and so
// does a key whose plan lacks `api_access` (D-PLAN-GATE: no 403 exists).
import type { MiddlewareHandler } from "hono";
import { UnauthorizedError } from "./errors.ts";
import type { AccountDirectory } from "./accounts.ts";
import { hasFeature } from "./plan-features.ts";
import type { AppEnv } from "./env.ts";
import { requestHeader } from "./request-headers.ts";

export function apiKeyAuth(directory: AccountDirectory): MiddlewareHandler<AppEnv> {
  // Not async: handing back next()'s promise spares an async frame per
  // request; a throw here still reaches onError through compose.
  return function authenticate(c, next) {
    const presented = requestHeader(c, "x-api-key");
    const found = presented ? directory.resolve(presented) : undefined;
    if (!found) throw new UnauthorizedError();
    if (!hasFeature(found.account, "api_access")) throw new UnauthorizedError("The plan does not include API access.");
    c.set("principal", { account: found.account, seat: found.seat, keyDigest: found.digest });
    return next();
  };
}
