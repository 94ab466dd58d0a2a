// `--scenario large`: the demo data plus 100,000 mentions across accounts
// (60,000 for account A in three datasets, 40,000 for account B in two), for
// trying lists, filters and search at a size a real deployment reaches. Built
// through ordinary dataset runs of 1,000 posts each (the seed's largest
// count), with only the sentiment analysis, so the build takes seconds, not
// minutes. Each account's balance is raised by what its runs cost before they
// run, so after the build it is where the demo has it, with the charges in
// its usage history.
import { zDatasetRunsCreateBody } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { SOURCES, searchPosts, type Post } from "../simulators/provider.ts";

export const LARGE_LAYOUT: { accountId: string; datasets: { name: string; topic: string; mentions: number }[] }[] = [
  {
    accountId: "acc_demoA",
    datasets: [
      { name: "Large: plant-based milk", topic: "plant based milk", mentions: 20_000 },
      { name: "Large: coffee shops", topic: "coffee shop", mentions: 20_000 },
      { name: "Large: breakfast cereal", topic: "breakfast cereal", mentions: 20_000 },
    ],
  },
  {
    accountId: "acc_demoB",
    datasets: [
      { name: "Large: indie games", topic: "indie game", mentions: 20_000 },
      { name: "Large: board games", topic: "board game", mentions: 20_000 },
    ],
  },
];

const PER_RUN = 1000;

/** Run with the demo accounts loaded (the large scenario is demo + this). */
export function buildLarge(services: Services): void {
  const now = services.clock.now();
  const window = { fromMs: now - 365 * 86_400_000, toMs: now };
  for (const { accountId, datasets } of LARGE_LAYOUT) {
    const account = services.directory.account(accountId);
    if (!account) throw new Error(`large scenario: account ${accountId} is not loaded`);
    const total = datasets.reduce((n, d) => n + d.mentions, 0);
    const cost = services.ledger.quote(accountId, "mention", total);
    const balance = services.ledger.balance(accountId);
    services.ledger.open(accountId, services.ledger.plan(accountId), balance.add(cost));
    for (const d of datasets) {
      const row = services.datasets.insert(accountId, d.name);
      const seen = new Set<string>();
      for (let q = 0; seen.size < d.mentions; q++) {
        const source = SOURCES[q % SOURCES.length]!;
        const want = Math.min(PER_RUN, d.mentions - seen.size);
        const query = `${d.topic} ${Math.floor(q / SOURCES.length)}`;
        const posts: Post[] = [];
        for (const post of searchPosts({
          source,
          query,
          count: PER_RUN,
          window,
          country: "US",
          language: null,
          numComments: 0,
        })) {
          const key = `${post.source}:${post.id}`;
          if (seen.has(key) || posts.length >= want) continue;
          seen.add(key);
          posts.push(post);
        }
        if (posts.length === 0) continue;
        const body = zDatasetRunsCreateBody.parse({
          search_query: { type: "prompt", sources: [source], search_query: query },
          count: Math.max(20, posts.length),
          num_comments_per_post: 0,
          content_analysis_actions: ["sentiment"],
        });
        services.datasetRuns.start(account, row, body, { inline: true, posts });
      }
    }
  }
}
