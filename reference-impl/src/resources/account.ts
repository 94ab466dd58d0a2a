// /v1/me, /v1/me/usage_history and /v1/prices: thin adapters over AccountService.
import { Hono } from "hono";
import { zAccountUsageHistoryQuery } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validQuery } from "../platform/validation.ts";

export function accountResource(services: Services) {
  const app = new Hono<AppEnv>();
  app.get("/me", (c) => c.json(ok(services.account.me(c.get("principal")))));
  app.get("/me/usage_history", validQuery(zAccountUsageHistoryQuery, "Account_usageHistory"), (c) =>
    c.json(list(services.account.usageHistory(c.get("principal"), c.req.valid("query")))),
  );
  app.get("/prices", (c) => c.json(ok(services.account.prices(c.get("principal")))));
  return app;
}
