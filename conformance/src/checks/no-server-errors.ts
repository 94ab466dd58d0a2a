import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { errorCode } from "./support/groups.ts";

/** Codes whose HTTP status the seed does not show: a 5xx carrying one is D-AI-5XX's choice, not a fault. */
const UNSHOWN_5XX = new Set(["ai_assistant_unavailable", "ai_assistant_timeout"]);

/** Nothing the kit sends, valid or not, may produce a 5xx: the seed calls a 5xx a server fault. */
export default defineCheck({
  id: "no-server-errors",
  rule: "No request the kit sends (valid or invalid) gets a 5xx (a 5xx carrying ai_assistant_unavailable or ai_assistant_timeout is D-AI-5XX's)",
  section: "Errors (5xx is a server fault)",
  severity: "critical",
  asserts: {
    fault: seed("errors.5xx", words("server fault")),
    assistant: decided("D-AI-5XX"),
  },
  mock: true,
  inspect(ex, ctx) {
    if (ex.status >= 500)
      return ctx.fail(ex, {
        judges: UNSHOWN_5XX.has(errorCode(ex) ?? "") ? "assistant" : "fault",
        title: `${ex.status} from ${ex.method} ${ex.path}`,
        received: ex.json ?? ex.text.slice(0, 200),
        expected: "a 2xx or a documented 4xx",
        message: ex.meta.negative ? `negative case: ${ex.meta.negative}` : undefined,
      });
    ctx.pass(ex);
  },
});
