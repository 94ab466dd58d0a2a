import type { GroupSpec } from "./types.ts";

/** Account, usage history and prices: reads only, free. */
export const account: GroupSpec = {
  id: "account",
  title: "Account and usage",
  section: "Endpoints › Account and prices",
  base: "/v1/me",
};
export const prices: GroupSpec = {
  id: "prices",
  title: "Prices",
  section: "Endpoints › Account and prices",
  base: "/v1/prices",
};
export const mentions: GroupSpec = {
  id: "mentions",
  title: "Mentions",
  section: "Endpoints › Mentions",
  base: "/v1/mentions",
};
export const audienceProfiles: GroupSpec = {
  id: "audience-profiles",
  title: "Audience profiles",
  section: "Endpoints › Audience profiles",
  base: "/v1/audience_profiles",
};
