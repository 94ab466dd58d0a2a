import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { header, status, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { initialize, mcpUrl, requireMcp, rpc } from "../mcp/client.ts";
import { bodyOf } from "../typed.ts";
import type { McpProtectedResourceMetadata } from "../../../generated/client/types.gen.ts";

/** `Bearer resource_metadata="<url>"`: the parameter present and its value quoted (RFC 6750 auth-param syntax). */
export function metadataUrlOf(value: string | undefined): string | undefined {
  return value ? /^\s*Bearer\b.*\bresource_metadata="([^"]+)"/i.exec(value)?.[1] : undefined;
}

/** The seed's form, `Bearer resource_metadata=<metadata_url>`: the URL quoted or not. */
function seedMetadataUrlOf(value: string | undefined): string | undefined {
  const m = value ? /^\s*Bearer\b.*\bresource_metadata=(?:"([^"]+)"|([^\s,"]+))/i.exec(value) : undefined;
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * Without credentials every MCP method is an HTTP 401 (a transport error)
 * whose WWW-Authenticate is `Bearer resource_metadata=<url>`, and the URL
 * points at the metadata document (the seed). That the URL is quoted (RFC
 * 6750) is D-OAUTH's; the document's contents (RFC 9728: resource,
 * authorization_servers) are D-MCP-OAUTH-METADATA's.
 */
export default defineCheck({
  id: "mcp-unauthenticated-401",
  phase: "mcp",
  rule: "initialize, tools/list and tools/call without x-api-key or bearer token (or with an invalid key) answer HTTP 401 with WWW-Authenticate: Bearer resource_metadata=<url>, and <url> answers the metadata document (2xx JSON); the URL is quoted (D-OAUTH); the document carries resource (the MCP URL) and at least one authorization server (D-MCP-OAUTH-METADATA)",
  section: "Authentication › MCP (3: 401 with WWW-Authenticate; 6: 401 is a transport error)",
  severity: "critical",
  asserts: {
    challenge: seed(
      ["mcp-auth.401-challenge", "mcp-auth.transport-vs-tool-errors"],
      words("If neither resolves: 401 with header"),
      status(401),
      header("WWW-Authenticate"),
      words("Bearer resource_metadata=<metadata_url>"),
      words("Transport errors (401, 429) surface as MCP transport errors"),
    ),
    document: seed("mcp-auth.401-challenge", words("pointing at the OAuth metadata document")),
    quoted: decided("D-OAUTH"),
    metadata: decided("D-MCP-OAUTH-METADATA"),
  },
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
      const challenge = ex.headers["www-authenticate"];
      const url = seedMetadataUrlOf(challenge);
      metadata ??= url;
      if (
        !ctx.expect(
          ex.status === 401 && !!url,
          {
            judges: "challenge",
            title: `${what} without credentials answered ${ex.status}${ex.status === 401 ? ` with WWW-Authenticate ${challenge ?? "(absent)"}` : ""}`,
            received: { status: ex.status, "www-authenticate": challenge ?? "(absent)" },
            expected: { status: 401, "www-authenticate": "Bearer resource_metadata=<metadata url>" },
          },
          ex,
        )
      )
        continue;
      ctx.expect(
        !!metadataUrlOf(challenge),
        {
          judges: "quoted",
          title: `${what} answered 401 with WWW-Authenticate ${challenge}: the resource_metadata URL is not quoted`,
          received: { "www-authenticate": challenge },
          expected: { "www-authenticate": 'Bearer resource_metadata="<metadata url>"' },
        },
        ex,
      );
    }
    if (!metadata) return ctx.notExercised("no resource_metadata URL to fetch");
    let target: URL;
    try {
      target = new URL(metadata, mcpUrl(ctx));
    } catch {
      return ctx.fail({
        judges: "document",
        title: `the resource_metadata URL ${metadata} is not a URL`,
        received: metadata,
        expected: "the URL of the OAuth metadata document",
      });
    }
    const doc = await ctx.req({
      method: "GET",
      path: target.pathname,
      url: target.toString(),
      key: "none",
      meta: { mcp: true },
    });
    if (
      !ctx.expect(
        doc.status >= 200 && doc.status < 300 && doc.json !== undefined,
        {
          judges: "document",
          title: `the metadata document ${target} answered ${doc.status}${doc.json === undefined ? " without a JSON body" : ""}`,
          received: { status: doc.status, body: doc.text.slice(0, 200) },
          expected: { status: "2xx", body: "the OAuth metadata document (JSON)" },
        },
        doc,
      )
    )
      return;
    const body = bodyOf<McpProtectedResourceMetadata>(doc);
    const servers: unknown = body?.authorization_servers;
    const resource = body?.resource;
    const okDoc =
      typeof resource === "string" &&
      Array.isArray(servers) &&
      servers.length > 0 &&
      (servers as unknown[]).every((s) => typeof s === "string");
    ctx.expect(
      okDoc,
      {
        judges: "metadata",
        title: `the metadata document ${target} carries no resource and authorization_servers`,
        received: { status: doc.status, body: doc.json },
        expected: { status: 200, body: { resource: mcpUrl(ctx), authorization_servers: ["<issuer url>"] } },
      },
      doc,
    );
    if (okDoc && body) {
      const same = resource.replace(/\/+$/, "") === mcpUrl(ctx).replace(/\/+$/, "");
      ctx.expect(
        same,
        {
          judges: "metadata",
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
