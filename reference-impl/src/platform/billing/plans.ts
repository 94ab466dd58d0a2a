// Plans and price catalog from the seed: dollars per unit by plan and the
// fixed unit ratios per category. Price = units x rate.
import type { AccountCategoryPrices } from "../../../../generated/client/types.gen.ts";
import { money, type Money } from "./money.ts";

export type PlanName = "trial" | "starter" | "pro" | "business";
/** Price categories are the keys of the contract's price table. */
export type Category = keyof AccountCategoryPrices;

export const UNIT_RATIOS: Record<Category, Money> = {
  mention: money(1),
  audience_profile: money(3),
  post_processing: money("0.5"),
  preview_generation: money(1),
};

export const CATEGORIES = Object.keys(UNIT_RATIOS).sort() as Category[];

export interface Plan {
  name: PlanName;
  display_name: string;
  /** Dollars per unit (credit usage rate). */
  rate: Money;
  monthly_price: Money;
  annual_price: Money | null;
  monthly_credits: number;
  seats: number;
  features: Record<
    | "api_access"
    | "audience_research"
    | "csv_export"
    | "custom_date_filter"
    | "daily_digest"
    | "digest_webhook"
    | "mcp"
    | "multisource_research"
    | "webhooks",
    boolean
  >;
  limits: Record<"max_research_depth" | "num_seats" | "parallelism" | "projects" | "tracking_agents", number>;
  /** Longest dataset-run date range the plan allows, in days. */
  max_date_range_days: number;
}

const allFeatures = {
  api_access: true,
  audience_research: true,
  csv_export: true,
  custom_date_filter: true,
  daily_digest: true,
  digest_webhook: true,
  mcp: true,
  multisource_research: true,
  webhooks: true,
};

export const PLANS: Record<PlanName, Plan> = {
  // A one-day trial costs 1 dollar with 1000 credits: 0.001 dollars per unit.
  trial: {
    name: "trial",
    display_name: "Trial",
    rate: money("0.001"),
    monthly_price: money(1),
    annual_price: null,
    monthly_credits: 1000,
    seats: 1,
    features: {
      ...allFeatures,
      audience_research: false,
      webhooks: false,
      digest_webhook: false,
      custom_date_filter: false,
    },
    limits: { max_research_depth: 1, num_seats: 1, parallelism: 1, projects: 1, tracking_agents: 1 },
    max_date_range_days: 365,
  },
  starter: {
    name: "starter",
    display_name: "Starter",
    rate: money("0.049"),
    monthly_price: money(98),
    annual_price: money(980),
    monthly_credits: 2000,
    seats: 1,
    features: { ...allFeatures, audience_research: false, webhooks: false, digest_webhook: false },
    limits: { max_research_depth: 2, num_seats: 1, parallelism: 2, projects: 5, tracking_agents: 2 },
    max_date_range_days: 365,
  },
  pro: {
    name: "pro",
    display_name: "Pro",
    rate: money("0.0356"),
    monthly_price: money(178),
    annual_price: money(1780),
    monthly_credits: 5000,
    seats: 3,
    features: allFeatures,
    limits: { max_research_depth: 3, num_seats: 3, parallelism: 4, projects: 20, tracking_agents: 10 },
    max_date_range_days: 730,
  },
  business: {
    name: "business",
    display_name: "Business",
    rate: money("0.0225"),
    monthly_price: money(450),
    annual_price: money(4500),
    monthly_credits: 20000,
    seats: 5,
    features: allFeatures,
    limits: { max_research_depth: 5, num_seats: 5, parallelism: 8, projects: 100, tracking_agents: 50 },
    max_date_range_days: 1095,
  },
};

export const CATALOG_VERSION = "2026-11";

/** Dollars per result of a category on a plan. */
export function unitPrice(plan: PlanName, category: Category): Money {
  return PLANS[plan].rate.mul(UNIT_RATIOS[category]);
}
