import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import type { Exchange } from "../http.ts";
import { initialize, mcpUrl, requireMcp, rpc } from "../mcp/client.ts";
import { bodyOf } from "../typed.ts";
import type { McpProtectedResourceMetadata } from "../../../generated/client/types.gen.ts";

/** `Bearer resource_metadata="<url>"`: the parameter present and its value quoted (RFC 6750 auth-param syntax). */
export function metadataUrlOf(header: string | undefined): string | undefined {
  return header ? /^\s*Bearer\b.*\bresource_metadata="([^"]+)"/i.exec(header)?.[1] : undefined;
}

/**
 * Without credentials every MCP method is a 401 transport error whose
 * WWW-Authenticate names the protected-resource metadata document (quoted),
 * and that document is served (RFC 9728: resource, authorization_servers).
 */
export default defineCheck({
  id: "mcp-unauthenticated-401",
  phase: "mcp",
  rule: 'initialize, tools/list and tools/call without x-api-key or bearer token answer HTTP 401 with WWW-Authenticate: Bearer resource_metadata="<url>" (quoted); the metadata document at <url> is JSON with resource (the MCP URL) and at least one authorization server',
  section: "Authentication › MCP (3: 401 with WWW-Authenticate)",
  severity: "critical",
  rules: {
    seed: "If neither resolves: 401 with header `WWW-Authenticate: Bearer resource_metadata=<metadata_url>` pointing at the OAuth metadata document.",
    decisions: [
      decision("D-MCP-OAUTH-METADATA", { title: /^the metadata document/, status: (s) => s >= 200 && s < 300 }),
      decision("D-OAUTH", { title: /quot|RFC 9728/ }),
      // the seed writes `resource_metadata=<metadata_url>`; that the value is quoted (RFC 6750 auth-param) is D-OAUTH's
      decision("D-OAUTH", { title: /answered 401 with WWW-Authenticate \S.*\bresource_metadata=(?!")/ }),
    ],
  },
  decisions: ["D-OAUTH", "D-MCP-OAUTH-METADATA"],
  profiles: ["readonly", "standard", "full"],
  lane: "anonymous",
  async run(ctx) {
    await requireMcp(ctx);
    const calls: Array<[string, Exchange]> = [
      ["initialize", (await initialize(ctx, {})).ex],
      ["tools/list", (await rpc(ctx, "tools/list", {}, {})).ex],
      ["tools/call", (await rpc(ctx, "tools/call", { name: "svc__get_me", arguments: {} }, {})).ex],
      [
        "tools/call with an invalid key",
        (
          await rpc(
            ctx,
            "tools/call",
            { name: "svc__get_me", arguments: {} },
            { key: { invalid: "sl_test_slk_invalid_key_000000" } },
          )
        ).ex,
      ],
    ];
    let metadata: string | undefined;
    for (const [what, ex] of calls) {
      const header = ex.headers["www-authenticate"];
      const url = metadataUrlOf(header);
      metadata ??= url;
      ctx.expect(
        ex.status === 401 && !!url,
        {
          title: `${what} without credentials answered ${ex.status}${ex.status === 401 ? ` with WWW-Authenticate ${header ?? "(absent)"}` : ""}`,
          received: { status: ex.status, "www-authenticate": header ?? "(absent)" },
          expected: { status: 401, "www-authenticate": 'Bearer resource_metadata="<metadata url>"' },
        },
        ex,
      );
    }
    if (!metadata) return ctx.notExercised("no resource_metadata URL to fetch");
    const doc = await ctx.req({
      method: "GET",
      path: new URL(metadata).pathname,
      url: metadata,
      key: "none",
      meta: { mcp: true },
    });
    const body = bodyOf<McpProtectedResourceMetadata>(doc);
    const servers: unknown = body?.authorization_servers;
    const resource = body?.resource;
    const okDoc =
      doc.status === 200 &&
      typeof resource === "string" &&
      Array.isArray(servers) &&
      servers.length > 0 &&
      (servers as unknown[]).every((s) => typeof s === "string");
    ctx.expect(
      okDoc,
      {
        title: `the metadata document ${metadata} answered ${doc.status} without resource and authorization_servers`,
        received: { status: doc.status, body: doc.json ?? doc.text.slice(0, 200) },
        expected: { status: 200, body: { resource: mcpUrl(ctx), authorization_servers: ["<issuer url>"] } },
      },
      doc,
    );
    if (okDoc && body) {
      const same = resource.replace(/\/+$/, "") === mcpUrl(ctx).replace(/\/+$/, "");
      ctx.expect(
        same,
        {
          title: "the metadata document's resource is not the MCP URL",
          received: resource,
          expected: mcpUrl(ctx),
        },
        doc,
      );
      for (const f of ["bearer_methods_supported", "scopes_supported"] as const)
        if (f in body && !Array.isArray(body[f]))
          ctx.warn(lenientWarning("D-MCP-OAUTH-METADATA", `${f} is not an array`), doc);
    }
  },
});
