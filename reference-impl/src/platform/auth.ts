// `x-api-key` -> (account, seat). Missing or unknown keys answer 401.
import type { MiddlewareHandler } from "hono";
import { UnauthorizedError } from "./errors.ts";
import type { AccountDirectory } from "./accounts.ts";
import type { AppEnv } from "./env.ts";

export function apiKeyAuth(directory: AccountDirectory): MiddlewareHandler<AppEnv> {
  return async function authenticate(c, next) {
    const presented = c.req.header("x-api-key");
    const found = presented ? directory.resolve(presented) : undefined;
    if (!found) throw new UnauthorizedError();
    c.set("principal", { account: found.account, seat: found.seat, keyDigest: found.digest });
    await next();
  };
}
