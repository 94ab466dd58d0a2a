// The default assistant engine: no model, no network, same answer for the
// same data. It searches the turn's datasets for the question's content
// words (narrowed to the platforms the question names), quotes the most
// engaged matches with post links, summarises sentiment, topics, brands and
// engagement, names what it used, and starts new work when the question asks
// for a preview, a pattern detection or a fresh run.
import type { CommonSource } from "../../../../generated/client/types.gen.ts";
import { SOURCES } from "../../simulators/provider.ts";
import type { MentionRecord } from "../mentions/record.ts";
import { quoteLine, sourceName, summarisePosts, summaryLines } from "../mentions/post-summary.ts";
import type { AssistantEngine, AssistantTools, EngineReply, EntityUse, Started, TurnInput } from "./engine.ts";
import { contentWords } from "./language.ts";

const QUOTES = 3;

/** The work a question asks for, read from its wording. */
export function requestedWork(question: string): { preview: boolean; patterns: boolean; run: boolean } {
  const q = question.toLowerCase();
  return {
    preview: /\b(research )?preview\b|\bestimate (the )?volume\b/.test(q),
    patterns: /\b(detect|find|run|cluster)\b[^.?!]*\bpatterns?\b|\bpattern detection\b/.test(q),
    run: /\b(new run|re-?run|refresh|collect (new|more|fresh)|fetch (new|more|fresh)|scrape (again|new|more))\b/.test(
      q,
    ),
  };
}

/** Which side of the conversation the question asks about, from its wording. */
export function sentimentFocus(question: string): "negative" | "positive" | null {
  const q = question.toLowerCase();
  if (/\b(complain\w*|problems?|issues?|negative|hate|dislike|bad|worst|criticis\w*)\b/.test(q)) return "negative";
  if (/\b(love|praise\w*|positive|best|enjoy\w*|recommend\w*)\b/.test(q)) return "positive";
  return null;
}

function sourcesNamed(question: string): CommonSource[] {
  const q = question.toLowerCase();
  return SOURCES.filter((s) => new RegExp(`\\b${s}\\b`).test(q));
}

function describeStart(what: string, started: Started): string {
  return started.ok ? `- ${started.note}` : `- I could not start the ${what}: ${started.reason}`;
}

export class DeterministicEngine implements AssistantEngine {
  reply(turn: TurnInput, tools: AssistantTools): EngineReply {
    const named = sourcesNamed(turn.question);
    const words = contentWords(turn.question).filter((w) => !(SOURCES as readonly string[]).includes(w));
    const bySource = (r: MentionRecord) => named.length === 0 || named.includes(r.post.source);
    const entities: EntityUse[] = [];
    const out: string[] = [];

    // New work first: it is what the caller asked for, so it leads the references.
    const work = requestedWork(turn.question);
    const startedLines: string[] = [];
    const firstDataset = turn.datasets[0];
    if (work.preview) {
      const sources = named.length ? named : (["reddit", "tiktok", "instagram"] as CommonSource[]);
      const started = tools.startPreview(words.join(" ") || turn.question.slice(0, 200), sources);
      if (started.ok) entities.push(started.entity);
      startedLines.push(describeStart("research preview", started));
    }
    if (work.patterns) {
      const started = firstDataset
        ? tools.startPatternDetection(firstDataset.id, turn.question)
        : ({ ok: false, reason: "there is no dataset in scope." } as const);
      if (started.ok) entities.push(started.entity);
      startedLines.push(describeStart("pattern detection", started));
    }
    if (work.run) {
      const started = firstDataset
        ? tools.startDatasetRun(firstDataset.id)
        : ({ ok: false, reason: "there is no dataset in scope." } as const);
      if (started.ok) entities.push(started.entity);
      startedLines.push(describeStart("dataset run", started));
    }

    if (turn.attached.length) {
      out.push(`You attached ${turn.attached.length} post${turn.attached.length === 1 ? "" : "s"}:`, "");
      for (const r of turn.attached.slice(0, 5)) out.push(quoteLine(r), "");
      const s = summarisePosts(turn.attached);
      out.push(...summaryLines(s), "");
    }
    if (turn.missingRefs.length) {
      out.push(
        `I could not find ${turn.missingRefs.length} of the attached posts in your datasets (${turn.missingRefs.map((r) => `${r.source} ${r.id}`).join(", ")}).`,
        "",
      );
    }

    let matches = tools.search(words).filter(bySource);
    let broadened = false;
    if (matches.length === 0 && words.length > 0) {
      // Nothing matched the words: fall back to everything in scope, and say so.
      matches = tools.search([]).filter(bySource);
      broadened = true;
    }
    // Name (and reference) the datasets the posts came from, not every dataset in scope.
    const used = turn.datasets.filter((d) => matches.some((r) => r.datasets.has(d.id)));
    const readFrom = used.length ? used : turn.datasets;
    const where = readFrom.length ? `in ${readFrom.map((d) => `*${d.name ?? d.id}*`).join(", ")}` : "in your account";
    const onWhat = words.length ? ` about **${words.join(" ")}**` : "";
    const platforms = named.length ? ` on ${named.map(sourceName).join(" and ")}` : "";
    if (turn.datasets.length === 0) {
      out.push(
        "There are no datasets to read yet. Create a dataset and run a search, or ask me for a research preview.",
      );
    } else if (matches.length === 0) {
      out.push(`I found no posts${platforms} ${where} yet.`);
    } else {
      const s = summarisePosts(matches, QUOTES);
      const focus = sentimentFocus(turn.question);
      const focused = focus
        ? summarisePosts(
            matches.filter((r) => r.analysis.sentiment?.label === focus),
            QUOTES,
          )
        : null;
      out.push(
        broadened
          ? `No post${platforms} ${where} mentions ${words.map((w) => `"${w}"`).join(" or ")}, so here is what the ${s.count} posts there say overall.`
          : `I read **${s.count} post${s.count === 1 ? "" : "s"}**${onWhat}${platforms} ${where}.`,
        "",
        ...summaryLines(s),
        "",
        focused && focused.count > 0 ? `**What the ${focused.count} ${focus} posts say**` : "**What people say**",
        "",
      );
      for (const r of focused && focused.count > 0 ? focused.top : s.top) out.push(quoteLine(r), "");
    }
    if (turn.unknownDatasetIds.length)
      out.push(`These dataset ids are not in your account and were skipped: ${turn.unknownDatasetIds.join(", ")}.`, "");

    if (startedLines.length) out.push("**Work started**", "", ...startedLines, "");

    // Patterns already detected on the datasets read are worth pointing at.
    for (const d of turn.datasets) {
      const p = tools.patternsOf(d.id)[0];
      if (p) {
        entities.push({ type: "pattern", id: p.id });
        out.push(`A detected pattern on *${d.name ?? d.id}* may help: **${p.name}**.`, "");
        break;
      }
    }
    const read = turn.datasets.filter((d) => matches.some((r) => r.datasets.has(d.id)));
    for (const d of read.length ? read : turn.datasets) entities.push({ type: "dataset", id: d.id });
    return { markdown: out.join("\n").trim(), entities };
  }
}
