// The profile analysis reads text: these tests feed it writings whose words
// differ in one direction and check the fields move the way the documented
// formula says, plus the walk rules (dedup, order, YouTube excluded).
import { describe, expect, it } from "vitest";
import { collectPeople, type Writing } from "../src/domain/audiences/people.ts";
import { profileFields, creatorTier } from "../src/domain/audiences/profile-fields.ts";
import { analyseWritings, oceanOf } from "../src/domain/audiences/text-profile.ts";
import { searchPosts, type Post } from "../src/simulators/provider.ts";

const writing = (text: string, extra: Partial<Writing> = {}): Writing => ({
  kind: "post",
  text,
  language: "en",
  created_ms: 0,
  likes: 10,
  replies: 2,
  views: 1000,
  shares: 1,
  media: [],
  vertical: false,
  ...extra,
});

describe("text profile", () => {
  it("reads negativity and self-focus as neuroticism, warmth as agreeableness", () => {
    const gloomy = analyseWritings([
      writing("I hate this. My order was awful and I am so worried, it is a terrible scam."),
      writing("I feel ruined, I never get a refund, I am afraid it is the worst."),
    ]);
    const warm = analyseWritings([
      writing("Thanks everyone, you are amazing! We love this community, so helpful!"),
      writing("Totally agree with you, great tips, thank you so much!"),
    ]);
    expect(gloomy.ocean.neuroticism).toBeGreaterThan(warm.ocean.neuroticism);
    expect(warm.ocean.agreeableness).toBeGreaterThan(gloomy.ocean.agreeableness);
    expect(warm.ocean.extraversion).toBeGreaterThan(gloomy.ocean.extraversion);
    expect(gloomy.tone).toMatch(/critical|frustrated/);
    expect(warm.tone).toMatch(/warm|promotional|positive/);
  });

  it("finds niches, interests and brands from the words", () => {
    const t = analyseWritings([
      writing("Tried the new oat milk from Oatly in my morning latte, the flavor is great."),
      writing("My breakfast recipe uses oat milk and Alpro yogurt."),
    ]);
    expect(t.niches[0]).toBe("food and drink");
    expect(t.industry).toBe("food and beverage");
    expect(t.brands).toEqual(expect.arrayContaining(["Oatly", "Alpro"]));
    expect(t.interests).toContain("oat milk");
  });

  it("little text pulls every OCEAN score toward 0.5", () => {
    const f = {
      ttr: 1,
      long: 1,
      quest: 1,
      excl: 0,
      self: 1,
      social: 0,
      pos: 0,
      neg: 1,
      negat: 1,
      tent: 1,
      struct: 0,
      promo: 0,
      agree: 0,
      comparative: -1,
    };
    const short = oceanOf({ ...f, words: 3 });
    const long = oceanOf({ ...f, words: 300 });
    for (const trait of Object.keys(short) as (keyof typeof short)[]) {
      expect(Math.abs(short[trait] - 0.5)).toBeLessThanOrEqual(Math.abs(long[trait] - 0.5));
    }
    expect(long.neuroticism).toBeGreaterThan(0.8);
    expect(short.neuroticism).toBeLessThan(0.65);
  });

  it("is deterministic and every OCEAN score stays in 0..1", () => {
    const ws = [writing("Has anyone compared 3 running shoes? Maybe I should try Nike first.")];
    expect(analyseWritings(ws)).toEqual(analyseWritings(ws));
    const extreme = oceanOf({
      words: 1,
      ttr: 1,
      long: 1,
      quest: 1,
      excl: 1,
      self: 1,
      social: 1,
      pos: 1,
      neg: 1,
      negat: 1,
      tent: 1,
      struct: 1,
      promo: 1,
      agree: 1,
      comparative: 5,
    });
    const zero = oceanOf({
      words: 0,
      ttr: 0,
      long: 0,
      quest: 0,
      excl: 0,
      self: 0,
      social: 0,
      pos: 0,
      neg: 0,
      negat: 0,
      tent: 0,
      struct: 0,
      promo: 0,
      agree: 0,
      comparative: 0,
    });
    for (const o of [extreme, zero])
      for (const v of Object.values(o)) (expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1));
  });
});

describe("people walk", () => {
  const posts = (source: "reddit" | "youtube" | "tiktok", q: string, n: number) =>
    searchPosts({ source, query: q, count: n, window: null, country: "US", language: "en", numComments: 5 });

  it("lists authors then commenters, deduplicated, skipping YouTube posts", () => {
    const base = posts("reddit", "oat milk", 6);
    const repeat: Post = { ...base[1]!, id: "t3_repeat", comments: [] };
    const walk = [...posts("youtube", "oat milk", 4), ...base, repeat];
    const people = collectPeople(walk);
    expect(people.every((p) => p.source === "reddit")).toBe(true);
    expect(new Set(people.map((p) => p.key)).size).toBe(people.length);
    expect(people[0]!.username).toBe(base[0]!.author.username);
    expect(people[0]!.creator).toBe(true);
    const second = base[0]!.comments.length
      ? base[0]!.comments.reduce((a, b) => (b.created_ms > a.created_ms ? b : a))
      : undefined;
    if (second) expect(people[1]!.username).toBe(second.author_username);
    // The repeated author has both posts as writings.
    const author = people.find((p) => p.username === base[1]!.author.username)!;
    expect(author.writings.filter((w) => w.kind === "post")).toHaveLength(2);
  });

  it("builds the same profile fields for the same person", () => {
    const people = collectPeople(posts("tiktok", "running shoes", 5));
    const a = profileFields(people[0]!);
    const b = profileFields(collectPeople(posts("tiktok", "running shoes", 5))[0]!);
    expect(a).toEqual(b);
    expect(a.creator_tier).toBe(creatorTier(a.follower_count));
    expect(a.platform_metadata).toMatchObject({ role: "creator" });
    const commenter = people.find((p) => !p.creator);
    if (commenter) {
      const c = profileFields(commenter);
      expect(c.location_country).toBeNull();
      expect(c.platform_metadata).toMatchObject({ role: "commenter" });
    }
  });
});
