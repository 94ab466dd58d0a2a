// /v1/tracking_agents: the nine operations — thin adapters over TrackingAgentService.
import { Hono } from "hono";
import {
  zTrackingAgentsCreateBody,
  zTrackingAgentsDeletePath,
  zTrackingAgentsListMessagesPath,
  zTrackingAgentsListMessagesQuery,
  zTrackingAgentsListQuery,
  zTrackingAgentsPausePath,
  zTrackingAgentsReadPath,
  zTrackingAgentsResumePath,
  zTrackingAgentsTriggerPath,
  zTrackingAgentsUpdateBody,
  zTrackingAgentsUpdatePath,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

export function trackingAgentsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { trackingAgents: agents } = services;

  app.post("/", validBody(zTrackingAgentsCreateBody), (c) =>
    c.json(ok(agents.create(c.get("principal"), c.req.valid("json"))), 201),
  );

  app.get("/", validQuery(zTrackingAgentsListQuery, "TrackingAgents_list"), (c) =>
    c.json(list(agents.list(c.get("principal"), c.req.valid("query")))),
  );

  app.get("/:agent_id", validPath(zTrackingAgentsReadPath), (c) =>
    c.json(ok(agents.read(c.get("principal"), c.req.valid("param").agent_id))),
  );

  app.patch(
    "/:agent_id",
    validPath(zTrackingAgentsUpdatePath),
    validBody(zTrackingAgentsUpdateBody, { whenEmpty: {} }),
    (c) => c.json(ok(agents.update(c.get("principal"), c.req.valid("param").agent_id, c.req.valid("json")))),
  );

  app.delete("/:agent_id", validPath(zTrackingAgentsDeletePath), (c) => {
    agents.delete(c.get("principal"), c.req.valid("param").agent_id);
    return c.body(null, 204);
  });

  app.post("/:agent_id/pause", validPath(zTrackingAgentsPausePath), (c) => {
    agents.pause(c.get("principal"), c.req.valid("param").agent_id);
    return c.body(null, 204);
  });

  app.post("/:agent_id/resume", validPath(zTrackingAgentsResumePath), (c) => {
    agents.resume(c.get("principal"), c.req.valid("param").agent_id);
    return c.body(null, 204);
  });

  app.post("/:agent_id/trigger", validPath(zTrackingAgentsTriggerPath), (c) =>
    c.json(ok(agents.trigger(c.get("principal"), c.req.valid("param").agent_id)), 202),
  );

  app.get(
    "/:agent_id/messages",
    validPath(zTrackingAgentsListMessagesPath),
    validQuery(zTrackingAgentsListMessagesQuery, "TrackingAgents_listMessages"),
    (c) => c.json(list(agents.listMessages(c.get("principal"), c.req.valid("param").agent_id, c.req.valid("query")))),
  );

  return app;
}
