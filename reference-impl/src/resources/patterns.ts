// /v1/pattern_detections (start 202, poll) and /v1/patterns (read a pattern,
// expand an item) — thin adapters over PatternService.
import { Hono } from "hono";
import {
  zPatternDetectionsCreateBody,
  zPatternDetectionsReadPath,
  zPatternsReadItemPath,
  zPatternsReadPath,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath } from "../platform/validation.ts";

export function patternDetectionsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { patterns } = services;

  app.post("/", validBody(zPatternDetectionsCreateBody), (c) =>
    c.json(ok(patterns.create(c.get("principal"), c.req.valid("json"))), 202),
  );

  app.get("/:run_id", validPath(zPatternDetectionsReadPath), (c) =>
    c.json(ok(patterns.read(c.get("principal"), c.req.valid("param").run_id))),
  );

  return app;
}

export function patternsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { patterns } = services;

  app.get("/:pattern_id", validPath(zPatternsReadPath), (c) =>
    c.json(ok(patterns.readPattern(c.get("principal"), c.req.valid("param").pattern_id))),
  );

  app.get("/:pattern_id/items/:item_id", validPath(zPatternsReadItemPath), (c) => {
    const { pattern_id, item_id } = c.req.valid("param");
    return c.json(ok(patterns.readItem(c.get("principal"), pattern_id, item_id)));
  });

  return app;
}
