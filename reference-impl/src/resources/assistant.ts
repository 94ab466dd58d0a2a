// POST /v1/ask — a thin adapter over AssistantService.ask (202 at once).
import { Hono } from "hono";
import { zAskAskBody } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody } from "../platform/validation.ts";

export function askResource(services: Services) {
  const app = new Hono<AppEnv>();
  app.post("/", validBody(zAskAskBody), (c) =>
    c.json(ok(services.assistant.ask(c.get("principal"), c.req.valid("json"))), 202),
  );
  return app;
}
