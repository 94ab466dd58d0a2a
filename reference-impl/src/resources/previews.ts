// /v1/research_previews: create (201, synchronous) and read — thin adapters over PreviewService.
import { Hono } from "hono";
import { zResearchPreviewsCreateBody, zResearchPreviewsReadPath } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath } from "../platform/validation.ts";

export function previewsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { previews } = services;

  app.post("/", validBody(zResearchPreviewsCreateBody), (c) =>
    c.json(ok(previews.create(c.get("principal"), c.req.valid("json"))), 201),
  );

  app.get("/:preview_id", validPath(zResearchPreviewsReadPath), (c) =>
    c.json(ok(previews.read(c.get("principal"), c.req.valid("param").preview_id))),
  );

  return app;
}
