import type { GroupSpec } from "./types.ts";

/** Research previews: 1 unit per source (prompt) or per URL returning data; re-reading is free. */
export const researchPreviews: GroupSpec = {
  id: "research-previews",
  title: "Research previews",
  section: "Endpoints › Research previews; Limits › Charges (2)",
  base: "/v1/research_previews",
  price: { category: "preview_generation", units: 1 },
};
