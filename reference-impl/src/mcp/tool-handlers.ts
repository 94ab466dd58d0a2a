// The fifteen tools as thin adapters: each validates its arguments with the
// generated zod, then calls the SAME domain service method as its REST twin
// with the caller's account and seat, so a tool and its twin cannot disagree
// (same ids, fields, order and errors). Lists answer `{content, cursor}`
// (D-MCP-PAGING): the service's page with a null cursor on the last page.
import { zAskAskBody, zAudienceProfilesSearchBody, zMentionsSearchBody } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import type { Caller } from "../platform/env.ts";
import type { PageResult } from "../platform/pagination.ts";
import { parseWith } from "../platform/validation.ts";
import type { ToolName } from "./catalogue.ts";

export interface ToolContext {
  services: Services;
  caller: Caller;
  /** Aborted when the HTTP request goes away (the client hung up or cancelled). */
  signal: AbortSignal;
  longPollMs: number;
}

// Arguments arrive already parsed by the tool's generated args schema.
type Args = any;
type Handler = (ctx: ToolContext, args: Args) => object | Promise<object>;

function toolList<T>(page: PageResult<T>): { content: T[]; cursor: string | null } {
  return { content: page.items, cursor: page.hasNext ? page.cursor : null };
}

/** List tools have no `order`: newest first, the REST default (D-MCP-PAGING). */
function pageQuery(args: { limit: number; cursor?: string }) {
  return { limit: args.limit, cursor: args.cursor, order: "desc" as const };
}

export const HANDLERS: Record<ToolName, Handler> = {
  svc__ask: ({ services, caller }, a) => {
    // The same turn as POST /v1/ask: the prompt is the message, the context flattened.
    const context =
      a.dataset_ids !== undefined || a.post_refs !== undefined
        ? { dataset_ids: a.dataset_ids, post_refs: a.post_refs }
        : undefined;
    const body = parseWith(zAskAskBody, "body", { message: a.prompt, chat_id: a.chat_id, context });
    return services.assistant.ask(caller, body);
  },

  svc__get_message: async ({ services, caller, signal, longPollMs }, a) => {
    const view = await services.assistant.waitForMessage(caller, a.chat_id, a.message_id, {
      timeoutMs: longPollMs,
      signal,
    });
    return services.assistant.mcpMessage(a.chat_id, view);
  },

  svc__render: ({ services, caller }, a) => services.assistant.renderBlock(caller, a.message_id, a.block_id),

  svc__list_datasets: ({ services, caller }, a) => toolList(services.datasets.list(caller, pageQuery(a))),

  svc__get_dataset: ({ services, caller }, a) => services.datasets.read(caller, a.dataset_id),

  svc__get_dataset_run: ({ services, caller }, a) => services.datasetRuns.read(caller, a.dataset_id, a.run_id),

  svc__list_audience_datasets: ({ services, caller }, a) => toolList(services.audiences.list(caller, pageQuery(a))),

  svc__get_audience_dataset: ({ services, caller }, a) => services.audiences.read(caller, a.audience_dataset_id),

  svc__get_audience_dataset_run: ({ services, caller }, a) =>
    services.audiences.readRun(caller, a.audience_dataset_id, a.run_id),

  // The search tools take the REST search body's fields; the REST body schema
  // then applies the per-group bounds the tool schema cannot name
  // (D-MCP-FILTER-GROUPS), so both surfaces refuse exactly the same requests.
  svc__list_audience_profiles: ({ services, caller }, a) =>
    toolList(services.audiences.searchProfiles(caller, parseWith(zAudienceProfilesSearchBody, "body", a))),

  // Sliced as REST is: a cold sort view at scale is built without holding the event loop (issue 18).
  svc__list_mentions: async ({ services, caller }, a) =>
    toolList(await services.mentionSearch.searchSliced(caller, parseWith(zMentionsSearchBody, "body", a))),

  svc__get_pattern_detection_run: ({ services, caller }, a) => {
    const run = services.patterns.read(caller, a.run_id);
    // D-MCP-PDR-RESULT: three fields of the REST run; pattern_id only once completed.
    return run.pattern_id !== undefined
      ? { run_id: run.run_id, status: run.status, pattern_id: run.pattern_id }
      : { run_id: run.run_id, status: run.status };
  },

  svc__list_tracking_agents: ({ services, caller }, a) => toolList(services.trackingAgents.list(caller, pageQuery(a))),

  svc__get_tracking_agent: ({ services, caller }, a) => services.trackingAgents.read(caller, a.agent_id),

  svc__get_me: ({ services, caller }) => services.account.me(caller),
};
