// The one citation rewriter: assistant turns and tracking-agent alerts both
// pass their markdown through `rewriteCitations` before storing it.
//
// Each inline post link `[label](post:source:id)` becomes a marker `[N]`,
// N counting from 1 by first appearance of each unique (source, id) in the
// message and reused when the post is cited again. Each post reference
// carries the half-open range of its first marker in the rewritten text.
// Offsets are JavaScript string indices, i.e. UTF-16 code units (D-CITE-UNITS),
// so `text.slice(start_index, end_index)` is exactly `[N]`.
//
// So that a client can also find a marker with a plain substring search, the
// rewritten text holds no other `[digits]` than the markers: a bracketed
// number already present in the prose is written `[12\]` (a CommonMark escape
// that renders as `[12]`). Links to posts the caller does not accept (unknown
// source, post not in the account) lose their link and keep their label.
import type { CommonPostReference, CommonSource } from "../../../../generated/client/types.gen.ts";
import { SOURCES } from "../../simulators/provider.ts";

export type PostReference = CommonPostReference;

export interface RewriteResult {
  text: string;
  posts: PostReference[];
}

export interface RewriteOptions {
  /** Whether a cited post may be referenced (e.g. it exists in the account). Default: any post of a known source. */
  accept?: (source: CommonSource, id: string) => boolean;
}

// Label: no brackets (so the match is unambiguous); target: `post:` + source + `:` + id, id without spaces or parentheses.
const POST_LINK = /\[([^[\]]*)\]\(post:([A-Za-z]+):([^()\s]+)\)/g;
// A bracketed number in the prose that a reader could mistake for a marker.
const BRACKETED_NUMBER = /\[(\d+)\]/g;

const KNOWN_SOURCES = new Set<string>(SOURCES);

function escapeProse(prose: string): string {
  return prose.replace(BRACKETED_NUMBER, "[$1\\]");
}

export function rewriteCitations(markdown: string, options: RewriteOptions = {}): RewriteResult {
  const accept = options.accept ?? (() => true);
  // Split into prose runs and markers; prose is escaped only once whole, since
  // a dropped link's label can join its neighbours into a new `[digits]`.
  const numbers = new Map<string, number>();
  const posts: PostReference[] = [];
  let out = "";
  let prose = "";
  let last = 0;
  for (const match of markdown.matchAll(POST_LINK)) {
    const [whole, label = "", source = "", id = ""] = match;
    const at = match.index;
    prose += markdown.slice(last, at);
    last = at + whole.length;
    if (!KNOWN_SOURCES.has(source) || !accept(source as CommonSource, id)) {
      prose += label;
      continue;
    }
    out += escapeProse(prose);
    prose = "";
    const key = `${source}\u0000${id}`;
    let n = numbers.get(key);
    const marker = () => `[${n}]`;
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(key, n);
      const start = out.length;
      out += marker();
      posts.push({
        type: "post",
        source: source as CommonSource,
        id,
        citation: n,
        start_index: start,
        end_index: out.length,
      });
    } else {
      out += marker();
    }
  }
  prose += markdown.slice(last);
  out += escapeProse(prose);
  return { text: out, posts };
}

/** Markdown link to a post, in the form the rewriter turns into a marker. */
export function postLink(label: string, source: string, id: string): string {
  // Brackets in a label would end the link early; they carry no meaning here.
  return `[${label.replace(/[[\]]/g, "")}](post:${source}:${id})`;
}
