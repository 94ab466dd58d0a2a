// POST /v1/mentions: search the account's mentions (free).
import { Hono } from "hono";
import { zMentionsSearchBody } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody } from "../platform/validation.ts";

export function mentionsResource(services: Services) {
  const app = new Hono<AppEnv>();
  // Sliced: a long scan yields to other accounts' requests.
  app.post("/", validBody(zMentionsSearchBody, { whenEmpty: {} }), async (c) => {
    return c.json(list(await services.mentionSearch.searchSliced(c.get("principal"), c.req.valid("json"))));
  });
  return app;
}
