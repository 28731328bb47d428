// UI strings in Chinese and English. Every visible label goes through `t()`; elements with
// data-i18n / data-i18n-label / data-i18n-placeholder attributes are refreshed by `applyStatic`.

const STRINGS = {
  en: {
    "app.tagline": "Shops six platforms, remembers what you like and refuse",
    "lang.toggle": "中文",
    "lang.toggleLabel": "Switch language to Chinese",
    "auth.title": "Welcome to Cartwise",
    "auth.subtitle": "Sign in to keep your preferences between visits.",
    "auth.username": "Username",
    "auth.password": "Password",
    "auth.login": "Log in",
    "auth.register": "Create account",
    "auth.switchToRegister": "New here? Create an account",
    "auth.switchToLogin": "Have an account? Log in",
    "auth.usernameHint": "3–32 characters: a–z, 0–9, _ . -",
    "auth.passwordHint": "At least 8 characters",
    "auth.logout": "Log out",
    "auth.signedInAs": "Signed in as {user}",
    "auth.expired": "Your session has expired. Please log in again.",
    "chat.placeholder": "What are you shopping for?",
    "chat.inputLabel": "Message to Cartwise",
    "chat.send": "Send",
    "chat.stop": "Stop",
    "chat.newChat": "New chat",
    "chat.empty.title": "What can I find for you?",
    "chat.empty.body": "Tell me what you need and what you don't want. I search every platform at once and remember your preferences.",
    "chat.examples": "Try",
    "chat.example1": "Headphones, no plastic",
    "chat.example2": "Running shoes size 42, under 500",
    "chat.example3": "Over-ear headphones",
    "chat.you": "You",
    "chat.assistant": "Cartwise",
    "chat.retry": "Retry",
    "chat.errorTitle": "Something went wrong",
    "chat.stopped": "Stopped.",
    "activity.label": "Progress",
    "stage.understanding": "Understanding",
    "stage.searching": "Searching",
    "stage.searchingN.one": "Searching {n} platform",
    "stage.searchingN.other": "Searching {n} platforms",
    "stage.picking": "Picking",
    "stage.remembering": "Remembering",
    "stage.done": "Done in {s} s",
    "cards.heading": "Results",
    "cards.results": "{products} from {platforms}",
    "count.products.one": "{n} product",
    "count.products.other": "{n} products",
    "count.platforms.one": "{n} platform",
    "count.platforms.other": "{n} platforms",
    "cards.noResults": "No products matched. Try loosening a constraint.",
    "cards.view": "View on {platform}",
    "cards.noRating": "No rating",
    "cards.rating": "Rated {r} out of 5",
    "cards.approx": "≈ {price}",
    "cards.imageMissing": "No image",
    "cards.setAside": "Set aside {n}",
    "cards.offers.one": "{n} offer of this model",
    "cards.offers.other": "{n} offers of this model",
    "cards.listed": "listed {price}",
    "deal.lowest_90d": "90-day low",
    "deal.below_usual": "Below usual",
    "deal.usual": "Usual price",
    "deal.above_usual": "Above usual",
    "history.note": "90-day low {low} ({date}) · usually {usual}",
    "history.chart": "Price over 180 days: 90-day low {low}, usually {usual}",
    "history.wasNeverCharged": "The “was” price {was} was never charged in 180 days",
    "watches.title": "Price watches",
    "watches.empty": "No watches. Say “tell me when it drops below $50” about an item.",
    "watches.price": "at or below {target}",
    "watches.stock": "back in stock",
    "watches.until": "until {date}",
    "watches.edit": "Edit the watch on {title}",
    "watches.cancel": "Cancel the watch on {title}",
    "watches.cancelled": "Stopped watching {title}",
    "watches.rearm": "Watch again",
    "watches.for": "for {who}",
    "watches.rearmLabel": "Watch {title} again",
    "watches.rearmed": "Watching {title} again",
    "watches.target": "Target price",
    "alerts.title": "Alerts",
    "alerts.price": "{title} is {price} on {platform} (your target {target})",
    "alerts.stock": "{title} is back in stock on {platform}",
    "results.controls": "Sort and more results",
    "results.sortBy": "Sort:",
    "results.sort.price_asc": "Price ↑",
    "results.sort.price_desc": "Price ↓",
    "results.sort.rating": "Rating",
    "results.sort.reviews": "Reviews",
    "results.more": "Show more",
    "results.page": "Page {n}",
    "followup.price_asc": "sort by price, low to high",
    "followup.price_desc": "sort by price, high to low",
    "followup.rating": "sort by rating",
    "followup.reviews": "most reviewed first",
    "followup.more": "show me more",
    "compare.title": "Compare prices across platforms",
    "compare.cheapest": "Cheapest",
    "perso.active": "Personalized",
    "perso.activeWith": "Personalized with: {likes}",
    "perso.inactive": "Not personalized",
    "perso.inactiveHelp": "No stored likes are relevant to this search",
    "remembered.prefix": "Remembered:",
    "remembered.replaced": "replaced {old}",
    "remembered.undo": "Undo",
    "remembered.undone": "Undone.",
    "remembered.undoLabel": "Undo what was remembered this turn",
    "panel.tabs": "Side panels",
    "panel.memory": "Memory",
    "panel.session": "This session",
    "panel.open": "Memory",
    "panel.close": "Close panel",
    "memory.title": "What I remember",
    "memory.empty": "Nothing yet. Say things like “no plastic” or “I like wood” and I'll remember.",
    "memory.likes": "Likes",
    "memory.dislikes": "Dislikes",
    "memory.global": "everywhere",
    "memory.hard": "must",
    "memory.soft": "prefer",
    "memory.edit": "Edit {label}",
    "memory.delete": "Delete {label}",
    "memory.deleted": "Deleted {label}",
    "memory.save": "Save",
    "memory.cancel": "Cancel",
    "memory.polarity": "Polarity",
    "memory.strength": "Strength",
    "memory.domain": "Domain (empty = everywhere)",
    "memory.keywords": "Keywords",
    "memory.refresh": "Refresh",
    "memory.help": "“must” preferences always filter results; “prefer” ones only change the order. Select a preference to change it.",
    "memory.recipient": "For whom (self = you)",
    "memory.forWhom": "For {who}",
    "recipient.self": "you",
    "recipient.mum": "Mum",
    "recipient.dad": "Dad",
    "recipient.wife": "your wife",
    "recipient.husband": "your husband",
    "recipient.girlfriend": "your girlfriend",
    "recipient.boyfriend": "your boyfriend",
    "recipient.son": "your son",
    "recipient.daughter": "your daughter",
    "recipient.friend": "your friend {name}",
    "polarity.like": "Like",
    "polarity.dislike": "Dislike",
    "strength.hard": "Hard (always filter)",
    "strength.soft": "Soft (ranking only)",
    "category.material": "Material",
    "category.style": "Style",
    "category.brand": "Brand",
    "category.budget": "Budget",
    "category.color": "Color",
    "category.size": "Size",
    "category.other": "Other",
    "pref.like": "likes {x}",
    "pref.dislike": "no {x}",
    "session.title": "This session",
    "session.empty": "Start a conversation to see what I'm tracking.",
    "session.intent": "Shopping for",
    "session.slots": "Facts",
    "session.constraints": "Just this time",
    "session.rejected": "Set aside",
    "session.questions": "Open questions",
    "session.decisions": "Decided",
    "session.none": "—",
    "slot.budget": "Budget",
    "slot.budget.max": "up to {max}",
    "slot.budget.min": "from {min}",
    "slot.budget.range": "{min} – {max}",
    "slot.size": "Size",
    "slot.color": "Colour",
    "reason.out_of_stock": "out of stock",
    "reason.excluded_term": "contains {term}, which you excluded",
    "reason.over_budget": "over budget ({price} > {limit})",
    "reason.under_budget_minimum": "below your minimum ({price} < {limit})",
    "reason.size_unavailable": "size {size} not available",
    "reasonKind.out_of_stock": "out of stock",
    "reasonKind.excluded_term": "contains {term}",
    "reasonKind.over_budget": "over budget",
    "reasonKind.under_budget_minimum": "below your minimum",
    "reasonKind.size_unavailable": "not in size {size}",
    "error.network": "Cannot reach the server. Check your connection and try again.",
    "error.status": "The server answered {status}.",
    "error.streamEnded": "The answer stopped before it finished.",
    "error.429": "Too many requests. Please wait a moment and retry.",
    "error.503": "A service Cartwise depends on is unavailable right now.",
  },
  zh: {
    "app.tagline": "同时搜索六个平台，记住你的喜好与忌讳",
    "lang.toggle": "EN",
    "lang.toggleLabel": "切换为英文",
    "auth.title": "欢迎使用 Cartwise",
    "auth.subtitle": "登录后，你的偏好会一直保留。",
    "auth.username": "用户名",
    "auth.password": "密码",
    "auth.login": "登录",
    "auth.register": "注册账号",
    "auth.switchToRegister": "第一次来？注册一个账号",
    "auth.switchToLogin": "已有账号？去登录",
    "auth.usernameHint": "3–32 个字符：a–z、0–9、_ . -",
    "auth.passwordHint": "至少 8 个字符",
    "auth.logout": "退出登录",
    "auth.signedInAs": "当前用户 {user}",
    "auth.expired": "登录已过期，请重新登录。",
    "chat.placeholder": "想买点什么？",
    "chat.inputLabel": "发给 Cartwise 的消息",
    "chat.send": "发送",
    "chat.stop": "停止",
    "chat.newChat": "新对话",
    "chat.empty.title": "今天想找点什么？",
    "chat.empty.body": "告诉我你需要什么、不想要什么。我会同时搜索所有平台，并记住你的偏好。",
    "chat.examples": "试试",
    "chat.example1": "不要塑料的耳机",
    "chat.example2": "跑步鞋 42 码，500 以内",
    "chat.example3": "推荐头戴式耳机",
    "chat.you": "你",
    "chat.assistant": "Cartwise",
    "chat.retry": "重试",
    "chat.errorTitle": "出了点问题",
    "chat.stopped": "已停止。",
    "activity.label": "进度",
    "stage.understanding": "理解需求",
    "stage.searching": "搜索中",
    "stage.searchingN.other": "搜索 {n} 个平台",
    "stage.picking": "挑选",
    "stage.remembering": "记住偏好",
    "stage.done": "用时 {s} 秒",
    "cards.heading": "结果",
    "cards.results": "来自{platforms}的{products}",
    "count.products.other": " {n} 件商品",
    "count.platforms.other": " {n} 个平台",
    "cards.noResults": "没有符合条件的商品，试试放宽一个条件。",
    "cards.view": "去{platform}查看",
    "cards.noRating": "暂无评分",
    "cards.rating": "评分 {r} / 5",
    "cards.approx": "≈ {price}",
    "cards.imageMissing": "暂无图片",
    "cards.setAside": "已排除 {n} 件",
    "cards.offers.other": "该型号的 {n} 个报价",
    "cards.listed": "标价 {price}",
    "deal.lowest_90d": "90天最低价",
    "deal.below_usual": "低于常价",
    "deal.usual": "常规价",
    "deal.above_usual": "高于常价",
    "history.note": "90天最低 {low}（{date}）· 常价 {usual}",
    "history.chart": "近180天价格：90天最低 {low}，常价 {usual}",
    "history.wasNeverCharged": "标的原价 {was} 近180天从没卖过",
    "watches.title": "降价提醒",
    "watches.empty": "还没有提醒。对某件商品说“降到300以下提醒我”试试。",
    "watches.price": "降到 {target} 或更低",
    "watches.stock": "有货时",
    "watches.until": "有效至 {date}",
    "watches.edit": "修改{title}的提醒",
    "watches.cancel": "取消{title}的提醒",
    "watches.cancelled": "已取消{title}的提醒",
    "watches.rearm": "再次提醒",
    "watches.for": "给{who}",
    "watches.rearmLabel": "再次提醒{title}",
    "watches.rearmed": "会再次提醒{title}",
    "watches.target": "目标价",
    "alerts.title": "到价通知",
    "alerts.price": "{title} 在{platform}降到 {price}（你的目标 {target}）",
    "alerts.stock": "{title} 在{platform}有货了",
    "results.controls": "排序和更多结果",
    "results.sortBy": "排序：",
    "results.sort.price_asc": "价格 ↑",
    "results.sort.price_desc": "价格 ↓",
    "results.sort.rating": "评分",
    "results.sort.reviews": "评价数",
    "results.more": "换一批",
    "results.page": "第 {n} 页",
    "followup.price_asc": "按价格从低到高排序",
    "followup.price_desc": "按价格从高到低排序",
    "followup.rating": "按评分排序",
    "followup.reviews": "按评价数排序",
    "followup.more": "换一批",
    "compare.title": "跨平台比价",
    "compare.cheapest": "最低价",
    "perso.active": "已个性化",
    "perso.activeWith": "已按你的喜好个性化：{likes}",
    "perso.inactive": "未个性化",
    "perso.inactiveHelp": "没有与本次搜索相关的已存喜好",
    "remembered.prefix": "已记住：",
    "remembered.replaced": "替换了 {old}",
    "remembered.undo": "撤销",
    "remembered.undone": "已撤销。",
    "remembered.undoLabel": "撤销本轮记住的内容",
    "panel.tabs": "侧边面板",
    "panel.memory": "记忆",
    "panel.session": "本次会话",
    "panel.open": "记忆",
    "panel.close": "关闭面板",
    "memory.title": "我记住的偏好",
    "memory.empty": "还没有。说“不要塑料”或“喜欢木质的”，我就会记住。",
    "memory.likes": "喜欢",
    "memory.dislikes": "不要",
    "memory.global": "全局",
    "memory.hard": "必须",
    "memory.soft": "倾向",
    "memory.edit": "编辑 {label}",
    "memory.delete": "删除 {label}",
    "memory.deleted": "已删除 {label}",
    "memory.save": "保存",
    "memory.cancel": "取消",
    "memory.polarity": "喜好",
    "memory.strength": "强度",
    "memory.domain": "品类（留空 = 全局）",
    "memory.keywords": "关键词",
    "memory.refresh": "刷新",
    "memory.help": "“必须”的偏好总会过滤结果，“倾向”的只影响排序。点击一条偏好即可修改。",
    "memory.recipient": "是谁的偏好（self = 你自己）",
    "memory.forWhom": "{who}的偏好",
    "recipient.self": "你",
    "recipient.mum": "妈妈",
    "recipient.dad": "爸爸",
    "recipient.wife": "老婆",
    "recipient.husband": "老公",
    "recipient.girlfriend": "女朋友",
    "recipient.boyfriend": "男朋友",
    "recipient.son": "儿子",
    "recipient.daughter": "女儿",
    "recipient.friend": "朋友 {name}",
    "polarity.like": "喜欢",
    "polarity.dislike": "不要",
    "strength.hard": "硬性（总是过滤）",
    "strength.soft": "软性（仅影响排序）",
    "category.material": "材质",
    "category.style": "款式",
    "category.brand": "品牌",
    "category.budget": "预算",
    "category.color": "颜色",
    "category.size": "尺码",
    "category.other": "其他",
    "pref.like": "喜欢{x}",
    "pref.dislike": "不要{x}",
    "session.title": "本次会话",
    "session.empty": "开始对话后，这里会显示我正在跟踪的信息。",
    "session.intent": "正在找",
    "session.slots": "已知条件",
    "session.constraints": "仅限本次",
    "session.rejected": "已排除",
    "session.questions": "待确认的问题",
    "session.decisions": "已决定",
    "session.none": "—",
    "slot.budget": "预算",
    "slot.budget.max": "{max} 以内",
    "slot.budget.min": "{min} 以上",
    "slot.budget.range": "{min} – {max}",
    "slot.size": "尺码",
    "slot.color": "颜色",
    "reason.out_of_stock": "缺货",
    "reason.excluded_term": "含有你排除的「{term}」",
    "reason.over_budget": "超出预算（{price} > {limit}）",
    "reason.under_budget_minimum": "低于预算下限（{price} < {limit}）",
    "reason.size_unavailable": "没有 {size} 码",
    "reasonKind.out_of_stock": "缺货",
    "reasonKind.excluded_term": "含「{term}」",
    "reasonKind.over_budget": "超出预算",
    "reasonKind.under_budget_minimum": "低于预算下限",
    "reasonKind.size_unavailable": "没有 {size} 码",
    "error.network": "无法连接服务器，请检查网络后重试。",
    "error.status": "服务器返回 {status}。",
    "error.streamEnded": "回答在完成前中断了。",
    "error.429": "请求太频繁，请稍等片刻再试。",
    "error.503": "Cartwise 依赖的服务暂时不可用。",
  },
};

const LANG_KEY = "cartwise.lang";
const listeners = new Set();

function initialLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === "zh" || saved === "en") return saved;
  const browser = (navigator.language || "en").toLowerCase();
  return browser.startsWith("zh") ? "zh" : "en";
}

let current = initialLanguage();

export function lang() {
  return current;
}

export function t(key, params = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** `t` of the plural form of `key` for `n` ("{key}.one" / "{key}.other"), with {n} filled. */
export function tn(key, n, params = {}) {
  const form = new Intl.PluralRules(current === "zh" ? "zh-CN" : "en-US").select(n);
  const chosen = STRINGS[current][`${key}.${form}`] !== undefined ? `${key}.${form}` : `${key}.other`;
  return t(chosen, { n, ...params });
}

export function setLanguage(next) {
  if (next !== "zh" && next !== "en") return;
  current = next;
  localStorage.setItem(LANG_KEY, next);
  applyStatic(document);
  for (const listener of listeners) listener(next);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
}

export function applyStatic(root) {
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
}

// Human label of a preference entry: "不要塑料" / "no plastic". Chinese prefers a CJK keyword
// the shopper actually used; English prefers the canonical slug.
const CJK = /[\u3400-\u9fff]/;

export function preferenceWord(entry) {
  const keywords = entry.keywords || [];
  if (current === "zh") {
    const chinese = keywords.find((k) => CJK.test(k));
    if (chinese) return chinese;
  } else {
    const latin = keywords.find((k) => !CJK.test(k));
    if (latin) return latin.toLowerCase();
  }
  return entry.slug.replace(/-/g, " ");
}

/** "Mum" / "妈妈", "your friend lily" / "朋友 lily"; an unknown slug is shown as written. */
export function recipientName(slug) {
  if (slug.startsWith("friend-")) return t("recipient.friend", { name: slug.slice("friend-".length).replace(/-/g, " ") });
  const key = `recipient.${slug}`;
  const name = t(key);
  return name === key ? slug.replace(/-/g, " ") : name;
}

// Domain slug → [Chinese, English] name, from the catalog's taxonomy (GET /i18n/domains.json).
let domainNames = {};

export async function loadDomainNames() {
  try {
    const response = await fetch("/i18n/domains.json");
    if (response.ok) domainNames = await response.json();
  } catch {
    // Offline or an older server: domains are then shown as their slugs.
  }
}

/** "数码电子" / "Electronics" for a taxonomy domain; a free-text domain is shown as written. */
export function domainName(slug) {
  const names = domainNames[slug];
  if (!names) return String(slug).replace(/[-_]/g, " ");
  return current === "zh" ? names[0] : names[1];
}

/** Why item_picker set a candidate aside, in the page's language: from its code and
 * parameters (amounts formatted as money), else its stored English reason. */
export function rejectionReason(option, { kind = false, preferences = [] } = {}) {
  if (!option.code) return option.reason;
  const params = { ...(option.params || {}) };
  if (params.term) {
    // The excluded word as the listing wrote it ("plastic" in an English title): say it as
    // the shopper's preference says it in the page's language.
    const term = params.term.toLowerCase();
    const entry = preferences.find((e) => (e.keywords || []).some((k) => k.toLowerCase() === term));
    if (entry) params.term = preferenceWord(entry);
  }
  for (const name of ["price", "limit"]) {
    if (params[name] !== undefined) params[name] = formatMoney(params[name], params.currency);
  }
  return t(`${kind ? "reasonKind" : "reason"}.${option.code}`, params);
}

export function preferenceLabel(entry) {
  return t(entry.polarity === "like" ? "pref.like" : "pref.dislike", { x: preferenceWord(entry) });
}

export function formatMoney(amount, currency) {
  if (amount === null || amount === undefined || Number.isNaN(Number(amount))) return "";
  try {
    // Whole amounts without decimals, as the reply writes them ("¥199", "$27.99").
    const whole = Number.isInteger(Number(amount));
    return new Intl.NumberFormat(current === "zh" ? "zh-CN" : "en-US", {
      style: "currency",
      currency: currency || "CNY",
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    }).format(Number(amount));
  } catch {
    return `${Number(amount).toFixed(2)} ${currency}`;
  }
}
