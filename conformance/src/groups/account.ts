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
