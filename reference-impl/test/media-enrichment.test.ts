// The enrichment options of a dataset run have a real effect derived from
// the post (D-REF-ENRICH): media descriptions from the media's shape
// and the post's topics and brands; transcripts of video posts appended to
// `text`. Two apps collect the same posts with and without the options.
import { describe, expect, it } from "vitest";
import { BRANDS } from "../src/simulators/corpus.ts";
import { createDataset, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

async function collect(t: TestApp, extra: Record<string, unknown>) {
  const ds = await createDataset(t);
  await runToCompletion(t, ds, {
    ...promptRun("oat milk", 60),
    search_query: { type: "prompt", sources: ["tiktok", "reddit", "instagram"], search_query: "oat milk" },
    ...extra,
  });
  const res = await t.call("POST", "/v1/mentions", { body: { dataset_ids: [ds], limit: 100 } });
  return new Map<string, any>(res.json.data.map((m: any) => [`${m.source}:${m.id}`, m]));
}

describe("dataset run enrichment", () => {
  it("describes media from their shape and the post's topics and brands, and transcribes video posts only", async () => {
    const plain = await collect(makeApp(), {});
    const rich = await collect(makeApp(), {
      enable_visual_recognition: true,
      enable_transcribing: true,
      content_analysis_actions: ["topics"],
    });
    expect(rich.size).toBe(plain.size);
    let videos = 0;
    for (const [key, m] of rich) {
      const before = plain.get(key)!;
      const hasVideo = m.media.some((x: any) => x.type === "video");
      if (hasVideo) {
        videos++;
        const [caption, transcript] = m.text.split("\n\nTranscript: ");
        expect(caption).toBe(before.text);
        expect(transcript).toBeTruthy();
        expect(transcript).not.toMatch(/#/);
        // Nothing invented: every word of the transcript is a word of the caption.
        for (const word of transcript.match(/[\p{L}']+/gu)) expect(caption).toContain(word);
      } else {
        expect(m.text).toBe(before.text);
      }
      for (const [i, media] of m.media.entries()) {
        expect(before.media[i].description).toBeNull();
        const v = media.version_list[0];
        const shape = v.width > v.height ? "Landscape" : v.width < v.height ? "Vertical" : "Square";
        expect(
          media.description.startsWith(
            `${shape} ${media.type === "video" ? "video" : "photo"} (${v.width}x${v.height})`,
          ),
        ).toBe(true);
        const shown = /, showing (.+?)(?:; on-screen|\.$)/.exec(media.description)?.[1];
        for (const b of shown ? shown.split(" and ") : []) {
          expect(BRANDS).toContain(b);
          expect(`${m.title} ${m.text}`).toContain(b);
        }
      }
    }
    expect(videos).toBeGreaterThan(0);
  });
});
