// What every MCP tool handler receives and the shapes they share. A handler
// is a thin adapter: its arguments arrive already parsed by the tool's
// generated args schema, and it calls the SAME domain service method as its
// REST twin with the caller's account and seat, so a tool and its twin cannot
// disagree (same ids, fields, order and errors).
import type * as z from "zod";
import type { zMcpToolCatalogue } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import type { Caller } from "../platform/env.ts";
import type { PageResult } from "../platform/pagination.ts";
import type { ToolName } from "./catalogue.ts";

export interface ToolContext {
  services: Services;
  caller: Caller;
  /** Aborted when the HTTP request goes away (the client hung up or cancelled). */
  signal: AbortSignal;
  longPollMs: number;
}

/** A tool's arguments as its generated args schema outputs them (defaults applied). */
export type ToolArgs<N extends ToolName> = z.output<(typeof zMcpToolCatalogue)["shape"][N]["shape"]["args"]>;

export type ToolHandler<N extends ToolName> = (ctx: ToolContext, args: ToolArgs<N>) => object | Promise<object>;

/** The handlers of a set of tools, each typed by its own arguments. */
export type ToolHandlers<N extends ToolName> = { [K in N]: ToolHandler<K> };

/** Lists answer `{content, cursor}` (D-MCP-PAGING): the service's page with a null cursor on the last page. */
export function toolList<T>(page: PageResult<T>): { content: T[]; cursor: string | null } {
  return { content: page.items, cursor: page.hasNext ? page.cursor : null };
}

/** List tools have no `order`: newest first, the REST default (D-MCP-PAGING). */
export function pageQuery(args: { limit: number; cursor?: string }) {
  return { limit: args.limit, cursor: args.cursor, order: "desc" as const };
}
