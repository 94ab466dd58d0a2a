// Small word lists the profile analysis reads text with. Niches and
// industries are keyed by lemmas (wink-nlp's `lemma`), brands by the brand
// names the provider can mention. They decide labels, never numbers drawn at
// random.

/** Niche label -> lemmas that signal it. */
export const NICHES: Record<string, readonly string[]> = {
  "food and drink": ["milk", "oat", "coffee", "latte", "recipe", "breakfast", "taste", "flavor", "flavour", "snack", "drink", "barista", "protein", "vegan", "dairy", "cook", "kitchen", "ingredient", "meal", "food", "tea", "yogurt", "almond"],
  "running and fitness": ["run", "running", "shoe", "sneaker", "marathon", "workout", "gym", "training", "fitness", "race", "mile", "trail", "cardio", "yoga", "peloton"],
  "beauty and skincare": ["skincare", "skin", "serum", "moisturizer", "makeup", "cleanser", "sunscreen", "spf", "beauty", "routine", "glow", "acne", "lipstick", "fragrance"],
  "technology": ["phone", "app", "laptop", "software", "tech", "gadget", "battery", "camera", "screen", "ai", "update", "device", "headphone", "tablet"],
  "fashion": ["jacket", "dress", "outfit", "style", "fashion", "wear", "hoodie", "jeans", "legging", "apparel"],
  "home and living": ["home", "furniture", "sofa", "lamp", "decor", "room", "vacuum", "clean", "garden"],
  "shopping and deals": ["price", "discount", "deal", "sale", "store", "code", "coupon", "cheap", "expensive", "refund", "purchase", "money"],
  "entertainment": ["show", "movie", "series", "music", "playlist", "podcast", "episode", "song", "stream"],
  "productivity and work": ["notion", "figma", "workflow", "team", "meeting", "project", "design", "startup", "business", "marketing"],
};

/** Niche -> industry it belongs to. */
export const NICHE_INDUSTRY: Record<string, string> = {
  "food and drink": "food and beverage",
  "running and fitness": "sports and fitness",
  "beauty and skincare": "beauty and personal care",
  "technology": "consumer technology",
  "fashion": "apparel and fashion",
  "home and living": "home goods",
  "shopping and deals": "retail",
  "entertainment": "media and entertainment",
  "productivity and work": "software",
};

/** Brand -> industry, for profiles whose words name no niche. */
export const BRAND_INDUSTRY: Record<string, string> = {
  Oatly: "food and beverage", Alpro: "food and beverage", Starbucks: "food and beverage", Chobani: "food and beverage",
  Silk: "food and beverage", Califia: "food and beverage", Danone: "food and beverage", "Trader Joe's": "retail",
  Costco: "retail", "Whole Foods": "retail", Amazon: "retail", IKEA: "home goods", Nike: "sports and fitness",
  Adidas: "sports and fitness", Lululemon: "apparel and fashion", Patagonia: "apparel and fashion", Peloton: "sports and fitness",
  Apple: "consumer technology", Samsung: "consumer technology", Google: "consumer technology", Tesla: "automotive",
  Dyson: "home goods", Sephora: "beauty and personal care", Glossier: "beauty and personal care", Spotify: "media and entertainment",
  Netflix: "media and entertainment", Notion: "software", Figma: "software", Canva: "software", Shopify: "software",
};

export const FIRST_PERSON = new Set(["i", "me", "my", "mine", "myself", "ich", "mich", "mein", "je", "moi", "mon", "yo", "mi", "eu", "meu"]);
export const SOCIAL_WORDS = new Set(["we", "us", "our", "you", "your", "yours", "everyone", "anyone", "guys", "friends", "community"]);
export const NEGATIONS = new Set(["not", "no", "never", "nothing", "nobody", "none", "n't", "nicht", "kein", "pas", "nunca", "não", "nao"]);
export const AGREEMENT = new Set(["agree", "thanks", "thank", "helpful", "love", "appreciate", "welcome", "please", "sorry", "totally"]);
export const TENTATIVE = new Set(["maybe", "perhaps", "guess", "think", "wonder", "might", "probably", "skeptical", "unsure"]);
export const STRUCTURE = new Set(["first", "second", "third", "step", "plan", "compare", "comparing", "notes", "list", "month", "week", "ingredient", "ingredients", "review", "breaking"]);
export const PROMO_PATTERNS = [/link in (the )?bio/i, /\b(subscribe|follow (me|for)|use code|discount code|check out)\b/i, /(enlace en la bio|link na bio|link in der bio|lien dans la bio|sígueme|me segue|folgt mir|abonnez-vous)/i];
export const LINK_IN_BIO = /(link in (the )?bio|enlace en la bio|link na bio|link in der bio|lien dans la bio)/i;

/** Cities a located creator may live in, per country (filled by a seeded pick: text cannot tell a city). */
export const CITIES: Record<string, readonly string[]> = {
  US: ["New York", "Los Angeles", "Chicago", "Austin", "Seattle", "Denver"],
  GB: ["London", "Manchester", "Bristol"],
  CA: ["Toronto", "Vancouver", "Montreal"],
  DE: ["Berlin", "Munich", "Hamburg"],
  FR: ["Paris", "Lyon", "Marseille"],
  ES: ["Madrid", "Barcelona", "Valencia"],
  BR: ["São Paulo", "Rio de Janeiro", "Belo Horizonte"],
  MX: ["Mexico City", "Guadalajara", "Monterrey"],
  AU: ["Sydney", "Melbourne", "Brisbane"],
};
