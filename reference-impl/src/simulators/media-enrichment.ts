// What a dataset run's enrichment step adds when the run asks for it
// (D-REF-ENRICH). The synthetic provider has no pixels and no audio,
// so both effects are derived from what the post does carry:
// - visual recognition describes each media item from its type and shape and
//   from the post's topics and brands, read from its title and text (noun
//   phrases from wink-nlp parts of speech, the brand list);
// - transcription gives video posts a transcript of the creator speaking
//   their caption (sentences split by wink-nlp, hashtags dropped, nothing
//   invented), appended to `text` as the contract describes. Posts without
//   video are unchanged.
import { english } from "./english.ts";
import { nounPhrases } from "./reading.ts";
import { brandsIn } from "./analysis.ts";
import type { MediaItem, Post } from "./provider.ts";

function shapeOf(m: MediaItem): string {
  const v = m.version_list[0];
  if (!v) return m.type === "video" ? "Video" : "Photo";
  const orientation = v.width > v.height ? "Landscape" : v.width < v.height ? "Vertical" : "Square";
  return `${orientation} ${m.type === "video" ? "video" : "photo"} (${v.width}x${v.height})`;
}

/** Media items with a description of what they most likely show. */
export function describeMedia(post: Post): MediaItem[] {
  if (!post.media.length) return post.media;
  const text = `${post.title}. ${post.text}`;
  // The parts-of-speech model is English; other posts get no topics rather than wrong ones.
  const topics = post.language.startsWith("en") ? nounPhrases(text).slice(0, 3) : [];
  const brands = brandsIn(text);
  return post.media.map((m) => {
    let d = shapeOf(m);
    if (topics.length) d += ` about ${topics.join(", ")}`;
    if (brands.length) d += `, showing ${brands.join(" and ")}`;
    if (post.title) d += `; on-screen title "${post.title}"`;
    return { ...m, description: `${d}.` };
  });
}

/** The spoken form of a video post's caption, or null when the post has no video. */
export function transcriptOf(post: Post): string | null {
  if (!post.media.some((m) => m.type === "video")) return null;
  const sentences = (english().readDoc(post.text).sentences().out() as string[])
    .map((s) => s.replace(/#[\p{L}\p{N}_]+/gu, "").trim())
    .filter((s) => /\p{L}/u.test(s));
  if (!sentences.length) return null;
  return sentences.join(" ");
}

/** `text` with the transcript appended (the contract's "text with the transcript appended"). */
export function withTranscript(post: Post): string {
  const transcript = transcriptOf(post);
  return transcript ? `${post.text}\n\nTranscript: ${transcript}` : post.text;
}
