// GET /health: liveness for load balancers and scripts. Needs no key, is not
// part of the /v1 contract, and says nothing about accounts.
import { Hono } from "hono";

export function healthResource(startedAt = Date.now()) {
  const app = new Hono();
  app.get("/health", (c) => c.json({ status: "ok", uptime_seconds: Math.floor((Date.now() - startedAt) / 1000) }));
  return app;
}
