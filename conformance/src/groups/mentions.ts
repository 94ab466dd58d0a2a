import type { GroupSpec } from "./types.ts";

/** POST /v1/mentions: a search across the account's datasets, free. */
export const mentions: GroupSpec = {
  id: "mentions",
  title: "Mentions",
  section: "Endpoints › Mentions",
  base: "/v1/mentions",
};
