"""The rules reader: one message, read in the light of the conversation → `Reading`.

Decisions documented here because they shape memory:
- A stated preference needs preference language: a refusal/aversion (→ dislike) or a liking
  verb (喜欢, prefer, love, 只要, only → like). Plain wanting (要, want, need) makes a like only
  in contrast with a refusal in the same message ("不要塑料的耳机，要金属的"); otherwise the
  attribute is part of the search (query text; a color becomes the `color` slot; a brand
  goes to `brands`, the exact filter).
- Scope: long_term by default; a session cue in the clause (or the message, when it has no
  long-term cue) makes it a this-session constraint. Safety is always long_term, global, hard.
- Domain of a preference: the product noun of the message, else the session's category,
  else empty (unsure → global).
- Budgets are slots, never preferences. Sizes are slots.
- Specs (a quantity with its unit, a socket, "the lightest") are read first; the budget and
  size grammars never see their words, so only money becomes a budget.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cartwise.catalog.taxonomy import (
    ProductType,
    goods_headed_by,
    pet_goods_named,
    product_type,
    types_named_in,
)
from cartwise.memory.session_state import SessionConstraint, SessionPrefState
from cartwise.memory.store import SELF, Category, Polarity, PreferenceEntry, Strength
from cartwise.recall.spec_request import asked_kind
from cartwise.text import HAN_RUN, han_runs, has_han
from cartwise.understanding.acts import Act, ActClassifier
from cartwise.understanding.budgets import without_unusable_budget
from cartwise.understanding.catalog_scope import names_gap
from cartwise.understanding.questions import is_gift_question
from cartwise.understanding.reading import (
    Conversation,
    Followup,
    GiftContext,
    Intent,
    Language,
    Reading,
    Scope,
    SmallTalk,
    StatedPreference,
)
from cartwise.understanding.rules import cues, requests
from cartwise.understanding.rules.budget import parse_budget
from cartwise.understanding.rules.clause_logic import apply_clause_logic
from cartwise.understanding.rules.followups import parse_followup
from cartwise.understanding.rules.lexicon import Lexicon, Match
from cartwise.understanding.rules.narrowing import narrowing_terms
from cartwise.understanding.rules.negation import (
    EMPHATIC,
    SAFETY_CONTEXT,
    ScopedTerm,
    Scoping,
    outside_triggers,
    scope_terms,
    trigger_spans,
)
from cartwise.understanding.rules.numbers import format_amount, parse_amount
from cartwise.understanding.rules.open_objects import FreeObject, free_dislikes, free_dislikes_zh
from cartwise.understanding.rules.phrase import search_phrase
from cartwise.understanding.rules.recipients import (
    clause_holders,
    find_recipients,
    purchase_recipient,
    topic_recipient,
)
from cartwise.understanding.rules.sizes import parse_size, parse_size_answer
from cartwise.understanding.rules.small_talk import small_talk_kind
from cartwise.understanding.rules.specs import masked, read_specs, without_stated_colours
from cartwise.understanding.rules.voice import Voice, read_voices
from cartwise.vocabulary import matcher
from cartwise.vocabulary.matcher import within_words
from cartwise.vocabulary.people import pet_slugs
from cartwise.vocabulary.phrase_words import says

# A refusal (not a mere aversion) makes an unknown object's dislike hard ("I don't eat X",
# "不要X"); "I don't like X" stays soft.
_FREE_REFUSAL = re.compile(
    r"不要|不想要|不吃|不穿|不用|不喝|不戴|别要|别买|avoid|refuse|never|don'?t (?:eat|drink|"
    r"wear|use|want|buy)|do not (?:eat|drink|wear|use|want|buy)|can'?t stand|stay away|"
    r"steer clear|\bno\b|without"
)
DEFAULT_CURRENCY: dict[Language, str] = {"zh": "CNY", "en": "USD"}


# Nouns for who the purchase is for ("宝宝", "baby") name a domain only when nothing more
# specific does: "宝宝...奶粉" is food, "给宝宝买奶瓶" is baby either way.
RECIPIENT_NOUNS = frozenset({"宝宝", "婴儿", "baby", "toddler", "宠物", "pet"})


# The head of a Chinese noun is its last character: 切尔西靴 and 雨靴 are boots, 五斗柜 a
# cabinet. Used only when no listed noun names the domain; characters with several
# common readings (机, 装, 包, 干) are left out on purpose.
HEAD_CHARACTER_DOMAINS = {
    **dict.fromkeys("靴鞋", "shoes"),
    **dict.fromkeys("裤袜裙衫袍帽", "clothing"),
    **dict.fromkeys("柜桌椅凳锅壶杯桶", "home"),
    "霜": "beauty",
}


def _noun_domain(matches: list[Match], text: str) -> str:
    domains = [(m.surface, t.slug) for m in matches if (t := m.first("domain"))]
    specific = [slug for surface, slug in domains if surface not in RECIPIENT_NOUNS]
    if specific or domains:
        return (specific or [slug for _, slug in domains])[0]
    for run in han_runs(text):
        head = run.rstrip("的了吗呢吧啊")[-1:]
        if head in HEAD_CHARACTER_DOMAINS:
            return HEAD_CHARACTER_DOMAINS[head]
    return ""


def _type_domain(text: str, contained: Sequence[Match], triggers: Sequence[tuple[int, int]]) -> str:
    """The domain of the first product type the message names outside what it must hold
    and outside its polarity triggers ("饭盒" names kitchen goods even where the lexicon's
    nouns do not list it; "fan" in "not a fan of" names none)."""
    named = types_named_in(
        masked(text, [*((noun.start, noun.end) for noun in contained), *triggers]),
        accept=within_words,
    )
    return str(named[0].domain) if named else ""


def _product_type(matches: list[Match]) -> str:
    """The product noun the message names: its first specific domain noun ("耳机", "running
    shoes"); a recipient noun ("宝宝") only when there is nothing else."""
    nouns = [m.surface.lower() for m in matches if m.first("domain")]
    specific = [noun for noun in nouns if noun not in RECIPIENT_NOUNS]
    return (specific or nouns or [""])[0]


def detect_language(text: str) -> Language:
    """Any Chinese character makes a message Chinese (mixed "我要买 Sony 耳机" is zh)."""
    return "zh" if has_han(text) else "en"


class RulesReader:
    """Reads one message into a `Reading` with the vocabulary and the small grammars."""

    def __init__(self, lexicon: Lexicon, acts: ActClassifier) -> None:
        self._lexicon = lexicon
        self._acts = acts

    def read(
        self, message: str, conversation: Conversation, *, acts_of: str | None = None
    ) -> Reading:
        """`acts_of`: the text whose dialogue acts the message performs, when `message` is
        another spelling of it (the act classifier reads what the shopper typed)."""
        text = message.strip()
        reading = self._read(text, conversation, (acts_of or text).strip())
        return _with_request_facts(reading, text, conversation.session)

    def _read(self, text: str, conversation: Conversation, acts_of: str) -> Reading:
        session, memory = conversation.session, conversation.memory
        language = detect_language(text)
        triggers = trigger_spans(text)
        mentions = find_recipients(text)
        # "my golden retriever", "my black lab": the colour is the pet's, not the goods'.
        matches = [
            m
            for m in outside_triggers(self._lexicon.scan(text), triggers)
            if not (
                m.first("preference")
                and any(n.start <= m.start and m.end <= n.end for n in mentions)
            )
        ]
        scoping = scope_terms(text, matches)
        apply_clause_logic(
            text,
            scoping,
            subject_clauses={
                index
                for index, (start, end) in enumerate(scoping.clauses)
                if any(start <= m.start < end for m in mentions)
            },
        )
        # Named in this message, else the one the session is buying for ("给我妈买条围巾" →
        # "要羊毛的，别太贵" / "她不喜欢紫色" are still for mum).
        acts = self._acts.acts(acts_of)
        if acts <= {Act.SMALL_TALK} and says(text, "ask"):
            # "我想买东西" asks for something, however chatty it sounds.
            acts = acts | {Act.REQUEST}
        about_gift = Act.GIFT_CONTEXT in acts
        # "宝宝快一岁了，…想换个牌子的纸尿裤": a person who is a clause's subject is whom the
        # message is about, as a gift's recipient is.
        about_someone = any(
            start <= m.start < end and _opens_clause(text[start : m.start])
            for m in mentions
            for start, end in scoping.clauses
        )
        recipient = (
            purchase_recipient(text, mentions)
            or topic_recipient(mentions, about_gift=about_gift or about_someone)
            or session.recipient
        )
        holders = clause_holders(text, scoping.clauses, mentions, recipient)
        voices = read_voices(text, scoping.clauses, mentions, buying_for=recipient)
        _keep_only_own_words(scoping, holders, voices)
        # "要能装15寸电脑的": the laptop is what the backpack must hold, not what is asked for.
        contained = requests.contained_nouns(text, matches)
        nouns = [m for m in matches if m not in contained]
        owned = _owned_clauses(text, scoping, nouns)
        # "小一点的，放床头柜上": where the thing goes is neither searched nor its type.
        placed = requests.placed_nouns(text)
        nouns = [m for m in nouns if not any(s <= m.start < e for s, e in [*owned, *placed])]
        noun_domain = _noun_domain(nouns, text) or _type_domain(
            masked(text, placed), contained, triggers
        )
        domain = noun_domain or session.category
        removed: list[tuple[int, int]] = list(scoping.negated_spans)
        removed.extend(owned)
        removed.extend(placed)
        removed.extend(requests.url_spans(text))
        # A person the purchase is for is no word of a listing; a pet may be ("dog food").
        removed.extend(
            (m.start, m.end)
            for m in mentions
            if m.slug not in pet_slugs()
            and not any(n.start < m.end and m.start < n.end for n in nouns)
        )

        slots: dict[str, str] = {}
        running = session.active_search
        specs, spans = read_specs(
            masked(text, [(m.start, m.end) for m in mentions]),
            running.phrase if running is not None and not noun_domain else "",
        )
        without_specs = masked(text, spans)
        budget = parse_budget(without_specs)
        slots.update(budget.slots(DEFAULT_CURRENCY[language]))
        removed.extend(budget.spans)
        followup = parse_followup(text, names_product=bool(noun_domain))
        removed.extend(followup.spans)
        ask = followup.followup.price_ask if followup.followup else None
        if ask is not None and ask.kind == "watch_price" and "budget_max" in slots:
            # "降到300以下提醒我": the amount is the watch's target, not a budget to search with.
            # In the currency said with it; none said, the shopper's (the answer knows it:
            # a budget in £ earlier makes "below 300" £300, not the language's dollars).
            ask.target = float(slots.pop("budget_max"))
            slots.pop("budget_currency", None)
            ask.currency = ask.currency or budget.currency or ""
        # "别太贵 / not too expensive" is a price wish without a number, not product words.
        removed.extend(m.span() for m in cues.VAGUE_BUDGET.finditer(text))
        size, size_spans = parse_size(without_specs, matches, domain=domain)
        # "one size up" is a step from the current size, not a size called "one size".
        if size and not (followup.followup and followup.followup.size_step):
            slots["size"] = size
            removed.extend(size_spans)

        noun_clauses = {
            index
            for index, (start, end) in enumerate(scoping.clauses)
            for m in matches
            if start <= m.start < end and m.first("domain") and m in nouns
        }
        removed.extend(_context_clauses(text, scoping, noun_clauses, matches))
        stated, brands, retracted = self._preferences(
            scoping, noun_clauses, text, domain, session, memory, slots, holders
        )
        other = followup.followup.other if followup.followup is not None else []
        # "想换个牌子…现在用的是好奇", "airpods平替", "代替苹果airtag的防丢器": the brand named is
        # the one to move away from: not shown in this search, and no standing dislike.
        away = brands if "brand" in other else _presented_as_reference(scoping, brands)
        if away:
            stated.extend(
                StatedPreference(
                    polarity=Polarity.DISLIKE,
                    category=Category.BRAND,
                    slug=brand,
                    domain=domain,
                    keywords=self._lexicon.keywords("preference", brand),
                    strength=Strength.HARD,
                    scope="request",
                )
                for brand in away
            )
            # A model that names its kind of goods (airpods, iphone) stays in the phrase: the
            # shopper wants that kind, from someone else.
            removed.extend(
                (t.match.start, t.match.end)
                for t in scoping.terms
                if t.term.slug in away and not _names_goods(t.match.surface)
            )
            brands = [b for b in brands if b not in away]
        answered = self._answer_open_questions(text, session, slots, language)
        if not stated and not retracted and not noun_domain:
            flip = _anaphoric_flip(text, memory)
            if flip is not None:
                stated.append(flip)
        free = (
            free_dislikes(text, scoping)
            if language == "en"
            else free_dislikes_zh(text, scoping, self._lexicon)
        )
        for found in free:
            if found.span is not None:
                removed.append(found.span)
            if not found.need_not and all(p.slug != found.slug for p in stated):
                stated.append(
                    self._free_preference(found, scoping, text, domain, holders[found.clause])
                )
        platforms: list[str] = []
        for match in matches:
            platform = match.first("platform")
            if platform:
                removed.append((match.start, match.end))
                if platform.slug not in platforms:
                    platforms.append(platform.slug)
        for index, (start, end) in enumerate(scoping.clauses):
            retracts = any(t.stance == "retract" and t.clause == index for t in scoping.terms)
            if retracts or index in scoping.statement_clauses:
                removed.append((start, end))

        evidence = _request_evidence(
            noun_domain=noun_domain,
            said=bool(stated or retracted or slots or brands or platforms or answered)
            or names_gap(text),
            specs=not specs.is_empty(),
            followup=followup.followup,
            shown=bool(session.shortlist),
        )
        if acts & CONVERSATIONAL_ACTS and not evidence and Act.REQUEST not in acts:
            # A greeting, thanks, goodbye or question about the assistant, asking for
            # nothing and with nothing in it to search for: answered briefly, never
            # searched. One that asks for something unnamed ("我想买东西") is a vague request.
            intent: Intent = "chitchat"
        else:
            intent = _intent(
                text,
                noun_domain,
                stated,
                retracted,
                slots,
                answered,
                brands,
                asks_apart=_asks_apart(text, scoping, free),
                says_only=bool(scoping.statement_clauses) and not evidence,
                states_taste=_states_taste(text, scoping, noun_clauses),
            )
        query = (
            "" if intent in ("preference", "chitchat") else search_phrase(text, removed, matches)
        )
        plan_followup = followup.followup
        if plan_followup is None and not noun_domain and query and intent == "search":
            narrowing = narrowing_terms(query, self._lexicon)
            if narrowing:
                said = [query[m.start : m.end] for m in narrowing]
                plan_followup = Followup(kind="refine", narrow=list(dict.fromkeys(said)))
                stated.extend(self._wanted(narrowing, stated, domain, recipient or SELF))
        type_text = query
        for noun in contained:
            type_text = type_text.replace(noun.surface.lower(), " ")
        types = [
            k.slug
            for k in types_named_in(type_text, accept=within_words)
            or types_named_in(_product_type(nouns), accept=within_words)
        ]
        if not types and language == "zh":
            # "买辆车，遥控的那种", "买个包，双肩的": the modifier said apart names the kind.
            types = [k.slug for k in _kind_said_apart(text, query)]
        if recipient in pet_slugs() and intent == "search":
            # "a bed for my cat", "toys for the dog", "dry food for my retriever": the pet's
            # goods of that kind.
            for_pet = pet_goods_named(type_text, recipient, accept=within_words)
            if for_pet and (not types or any(product_type(t) not in for_pet for t in types)):
                types = [k.slug for k in for_pet]
        running_kinds = [
            kind
            for kind in map(product_type, running.product_types if running is not None else [])
            if kind is not None
        ]
        if plan_followup is not None and types and running_kinds:
            # "sort the beds by price" over cat beds: the shown beds, not beds for people.
            headed = goods_headed_by(type_text, running_kinds, accept=within_words)
            if headed:
                types = [k.slug for k in headed]
        # A type's name is more precise than a generic noun beside it ("chew toy": pet goods,
        # though "toy" alone is a toy).
        type_domains = {kind.domain for kind in map(product_type, types) if kind is not None}
        if len(type_domains) == 1:
            domain = type_domains.pop()
        if (
            plan_followup is None
            and not noun_domain
            and not types
            and not asked_kind(query)
            and not names_gap(query, for_pets=session.category == "pets")
            and query
            and intent == "search"
            and session.active_search is not None
            and not requests.is_vague(query)
        ):
            # No product named during a search: words that narrow it ("要保暖一点的",
            # "braided?"), never a new search for those words alone.
            plan_followup = Followup(kind="refine", narrow=[query])
        current_intent = ""
        if noun_domain and query and intent in ("search", "compare"):
            current_intent = f"买{query}" if language == "zh" else f"buy {query}"
        return Reading(
            language=language,
            acts=sorted(acts),
            intent=intent,
            domain=domain,
            query=query,
            product_type=_product_type(nouns),
            types=types,
            followup=plan_followup,
            current_intent=current_intent,
            slots=slots,
            constraints=[
                SessionConstraint(
                    polarity=p.polarity,
                    category=p.category,
                    slug=p.slug,
                    strength=p.strength,
                    keywords=p.keywords,
                )
                for p in stated
                if p.scope == "session" and p.recipient == (recipient or SELF)
            ],
            stated=stated,
            retracted=retracted,
            brands=brands,
            platforms=platforms,
            answered_questions=answered,
            recipient=recipient or SELF,
            specs=without_stated_colours(specs, stated),
        )

    def _preferences(
        self,
        scoping: Scoping,
        noun_clauses: set[int],
        text: str,
        domain: str,
        session: SessionPrefState,
        memory: Sequence[PreferenceEntry],
        slots: dict[str, str],
        holders: list[str],
    ) -> tuple[list[StatedPreference], list[str], list[str]]:
        refused = [
            (t.clause, t.term.category, t.match.start)
            for t in scoping.terms
            if t.stance == "dislike"
        ]
        stated: list[StatedPreference] = []
        brands: list[str] = []
        retracted: list[str] = []
        seen: set[tuple[str, str, str]] = set()
        for scoped in scoping.terms:
            term = scoped.term
            category = term.category or Category.OTHER
            stance = scoped.stance
            if stance == "ignored":
                continue
            if stance == "retract":
                retracted.extend(_retraction_keys(category, term.slug, session, memory))
                continue
            if category is not Category.COLOR and _contrasted(scoped, refused, noun_clauses):
                stance = "like"
            if stance in ("want", "neutral"):
                if category is Category.COLOR and "color" not in slots:
                    if not _describes_another_thing(text, scoped, scoping, noun_clauses):
                        slots["color"] = term.slug
                elif category is Category.BRAND and term.slug not in brands:
                    brands.append(term.slug)
                continue
            polarity = Polarity.DISLIKE if stance == "dislike" else Polarity.LIKE
            holder = holders[scoped.clause]
            if (polarity.value, term.slug, holder) in seen:
                continue
            seen.add((polarity.value, term.slug, holder))
            stated.append(self._stated(scoped, scoping, polarity, category, text, domain, holder))
            if category is Category.BRAND and scoped.trigger == "prefer_hard":
                brands.append(term.slug)
        return stated, brands, _unique(retracted)

    def _stated(
        self,
        scoped: ScopedTerm,
        scoping: Scoping,
        polarity: Polarity,
        category: Category,
        text: str,
        domain: str,
        recipient: str,
    ) -> StatedPreference:
        safety = scoped.trigger == "safety" or (
            polarity is Polarity.DISLIKE and bool(SAFETY_CONTEXT.search(text.lower()))
        )
        soft = scoped.clause in scoping.soft_clauses
        if safety:
            scope: Scope = "long_term"
        elif scoped.scope is not None:
            scope = scoped.scope
        else:
            scope = _scope(scoping, scoped.clause, text)
        return StatedPreference(
            polarity=polarity,
            category=category,
            slug=scoped.term.slug,
            domain="" if safety else domain,
            strength=_strength(scoped, polarity, safety, soft=soft),
            keywords=self._lexicon.keywords("preference", scoped.term.slug),
            scope=scope,
            recipient=recipient,
        )

    def _wanted(
        self,
        narrowing: list[Match],
        stated: list[StatedPreference],
        domain: str,
        recipient: str,
    ) -> list[StatedPreference]:
        """A material, colour or style asked for with no product noun, as a like of this
        request only: it ranks the running search's matches first and is never stored."""
        wanted: list[StatedPreference] = []
        taken = {p.slug for p in stated}
        for match in narrowing:
            term = match.first("preference")
            if term is None or term.category in (None, Category.BRAND) or term.slug in taken:
                continue
            taken.add(term.slug)
            wanted.append(
                StatedPreference(
                    polarity=Polarity.LIKE,
                    category=term.category,
                    slug=term.slug,
                    domain=domain,
                    strength=Strength.SOFT,
                    keywords=self._lexicon.keywords("preference", term.slug),
                    scope="request",
                    recipient=recipient,
                )
            )
        return wanted

    def _free_preference(
        self, found: FreeObject, scoping: Scoping, text: str, domain: str, recipient: str
    ) -> StatedPreference:
        clause = found.clause_text
        safety = bool(SAFETY_CONTEXT.search(clause))
        emphatic = safety or bool(EMPHATIC.search(clause))
        refusal = bool(_FREE_REFUSAL.search(clause)) and found.clause not in scoping.soft_clauses
        scope = "long_term" if safety else _scope(scoping, found.clause, text)
        return StatedPreference(
            polarity=Polarity.DISLIKE,
            category=Category.OTHER,
            slug=found.slug,
            domain="" if safety else domain,
            strength=Strength.HARD if emphatic or refusal else Strength.SOFT,
            keywords=list(found.keywords),
            scope=scope,
            recipient=recipient,
        )

    def _answer_open_questions(
        self, text: str, session: SessionPrefState, slots: dict[str, str], language: Language
    ) -> list[str]:
        answered: list[str] = []
        for question in session.open_questions:
            if cues.SIZE_QUESTION.search(question):
                size = slots.get("size") or parse_size_answer(text)
                if size:
                    slots["size"] = size
                    answered.append(question)
            elif cues.BUDGET_QUESTION.search(question):
                bare = cues.BARE_AMOUNT.match(text)
                amount = parse_amount(bare.group("a")) if bare else None
                if "budget_max" not in slots and amount:
                    slots["budget_max"] = format_amount(amount)
                    slots["budget_currency"] = _answer_currency(text, question, language)
                if "budget_max" in slots or "budget_min" in slots:
                    answered.append(question)
            elif cues.COLOR_QUESTION.search(question) and "color" in slots:
                answered.append(question)
        return answered


def _answer_currency(answer: str, question: str, language: Language) -> str:
    """A bare amount ("300") is in the currency of the language the question was asked in:
    digits alone say nothing about the shopper's language. A symbol decides when present."""
    if "$" in answer:
        return "USD"
    if "¥" in answer or "￥" in answer or "元" in answer or "块" in answer:
        return "CNY"
    if not any(ch.isalpha() for ch in answer):
        return DEFAULT_CURRENCY["zh" if has_han(question) else "en"]
    return DEFAULT_CURRENCY[language]


def _strength(scoped: ScopedTerm, polarity: Polarity, safety: bool, *, soft: bool) -> Strength:
    emphatic = bool(EMPHATIC.search(scoped.clause_text))
    if polarity is Polarity.DISLIKE:
        refusal = scoped.trigger in ("refusal", "exclusion") and not soft
        hard = safety or emphatic or refusal
    else:
        hard = emphatic or scoped.trigger == "prefer_hard"
    return Strength.HARD if hard else Strength.SOFT


def _scope(scoping: Scoping, index: int, text: str) -> Scope:
    """The clause's own cue wins; otherwise a session cue earlier in the message carries
    forward ("这回预算紧，一千以内，颜色不要红色"); a session cue later in the message carries
    backwards only from a clause that states nothing itself ("不要彪马，这次想试试别的"), so
    "I like black but this time I want a white shirt" keeps black long-term."""
    lowered = text.lower()
    clauses = [lowered[a:b] for a, b in scoping.clauses]
    clause = clauses[index]
    if says(clause, "session"):
        return "session"
    if says(clause, "standing"):
        return "long_term"
    before = " ".join(clauses[:index])
    if says(before, "session") and not says(before, "standing"):
        return "session"
    for later in range(index + 1, len(clauses)):
        stating = any(t.clause == later and t.stance != "ignored" for t in scoping.terms)
        if not stating and says(clauses[later], "session"):
            return "session"
    return "long_term"


def _anaphoric_flip(text: str, memory: Sequence[PreferenceEntry]) -> StatedPreference | None:
    """ "现在不喜欢了" / "not anymore" names nothing: it takes back the most recently
    written like (which the curator then supersedes) and states the opposite, softly."""
    if not cues.ANAPHORIC_FLIP.search(text.lower()):
        return None
    likes = [e for e in memory if e.polarity is Polarity.LIKE]
    if not likes:
        return None
    latest = max(likes, key=lambda e: e.provenance.updated_at)
    return StatedPreference(
        polarity=Polarity.DISLIKE,
        category=latest.category,
        slug=latest.slug,
        domain=latest.domain,
        strength=Strength.SOFT,
        keywords=list(latest.keywords),
        scope="long_term",
    )


_REFUSING = frozenset({"refusal", "aversion", "exclusion"})


def _keep_only_own_words(scoping: Scoping, holders: list[str], voices: list[Voice]) -> None:
    """Only the shopper's own words become memory: a clause that is quoted, pasted,
    supposed or someone else's states nothing (its unknown words are no free dislike
    either); a revoked past dislike is taken back; words a named person said are theirs."""
    revoked_slugs: dict[str, int] = {}
    for index, voice in enumerate(voices):
        if voice.kind == "own":
            continue
        if voice.holder is not None:
            holders[index] = voice.holder
            continue
        scoping.silent_clauses.add(index)
        for term in scoping.terms:
            if term.clause != index:
                continue
            revoked = voice.kind == "revoked" and term.stance == "dislike"
            if voice.kind == "revoked" and (revoked or term.trigger in _REFUSING):
                revoked_slugs.setdefault(term.term.slug, index)
            term.stance = "retract" if revoked else "ignored"
    # "I used to avoid wool, not anymore": the revoking clause repeats the refusal it takes
    # back (its negation carries the object over); it states no dislike of its own.
    for term in scoping.terms:
        first = revoked_slugs.get(term.term.slug)
        if first is not None and term.clause > first and term.stance == "dislike":
            term.stance = "retract"


def _contrasted(
    scoped: ScopedTerm, refused: list[tuple[int, Category | None, int]], noun_clauses: set[int]
) -> bool:
    """A want or bare mention set against a refusal is a like:
    - "不要塑料的耳机，要金属的" / "要玻璃的，不要塑料的": wanting in another clause than a refusal,
      when that clause names no product or wants the refused term's category;
    - "glass not plastic": a bare term followed in its clause by a refused term of its category.
    """
    if scoped.stance == "want":
        return any(
            clause != scoped.clause
            and (scoped.clause not in noun_clauses or category is scoped.term.category)
            for clause, category, _ in refused
        )
    if scoped.stance == "neutral":
        return any(
            clause == scoped.clause
            and category is scoped.term.category
            and start > scoped.match.start
            for clause, category, start in refused
        )
    return False


def _retraction_keys(
    category: Category, slug: str, session: SessionPrefState, memory: Sequence[PreferenceEntry]
) -> list[str]:
    """Every stored dislike of this slug (all domains), plus its session constraint key."""
    keys = [
        entry.dedup_key
        for entry in memory
        if entry.slug == slug and entry.polarity is Polarity.DISLIKE
    ]
    keys.append(f"{category.value}:{slug}")
    return keys


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _intent(
    text: str,
    noun_domain: str,
    stated: list[StatedPreference],
    retracted: list[str],
    slots: dict[str, str],
    answered: list[str],
    brands: list[str],
    *,
    asks_apart: bool,
    says_only: bool,
    states_taste: bool,
) -> Intent:
    """`asks_apart`: a clause stating no preference asks for something ("我不吃茴香，推荐点
    饺子": the taste is said and dumplings asked for). `says_only`: the message only says
    something about the shopper that cancels itself ("我对芝麻不过敏", "I don't hate nylon")
    and holds nothing to search with. `states_taste`: the goods it names are what the shopper
    dislikes ("我不喜欢木头做的家具"), not what they ask for."""
    lowered = text.lower()
    if answered and not noun_domain:
        return "answer"
    if cues.COMPARE.search(lowered):
        return "compare"
    if cues.CHITCHAT.match(lowered) or small_talk_kind(text):
        return "chitchat"
    # "我一般不穿羊毛的衣服" names a noun but states a standing rule, not a search.
    standing_rule = not noun_domain or says(lowered, "standing") or states_taste
    if (stated or retracted) and not slots and not brands and standing_rule and not asks_apart:
        return "preference"
    return "preference" if says_only else "search"


def _states_taste(text: str, scoping: Scoping, noun_clauses: set[int]) -> bool:
    """Whether every clause naming goods says the shopper dislikes something in them ("我不
    喜欢木头做的家具", "I can't stand leather sofas") and nothing asks for anything: a taste
    told, not a request ("不要塑料的奶瓶" refuses within a request)."""
    averse = {t.clause for t in scoping.terms if t.stance == "dislike" and t.trigger == "aversion"}
    return bool(noun_clauses) and noun_clauses <= averse and not says(text, "ask")


def _asks_apart(text: str, scoping: Scoping, free: Sequence[FreeObject]) -> bool:
    """Whether a clause stating no preference asks for something."""
    stating = {t.clause for t in scoping.terms if t.stance != "neutral"}
    stating |= {f.clause for f in free if not f.need_not}
    return any(
        index not in stating and says(text[start:end], "ask")
        for index, (start, end) in enumerate(scoping.clauses)
    )


def _describes_another_thing(
    text: str, scoped: ScopedTerm, scoping: Scoping, noun_clauses: set[int]
) -> bool:
    """A colour in a Chinese clause about something that is not the product ("最近屁屁老是
    红红的", "脸红红的"): the clause names no product and says more than the colour ("红色的",
    "最好是白色的" say only the colour)."""
    start, end = scoping.clauses[scoped.clause]
    # English puts what a colour describes in words no vocabulary lists ("dark green",
    # "purple if possible"); only a Chinese clause is read this way.
    if scoped.clause in noun_clauses or not has_han(text[start:end]):
        return False
    terms = [t.match for t in scoping.terms if t.clause == scoped.clause]
    removed = [(m.start - start, m.end - start) for m in terms]
    return bool(search_phrase(text[start:end], removed, []).strip())


_CLAUSE_SUBJECT_LEAD = frozenset({"", "my", "our", "我", "我家", "我的", "我们家"})


def _opens_clause(before: str) -> bool:
    """Whether a noun preceded by `before` in its clause is the clause's subject ("宝宝快一岁
    了", "my baby is 8 months"), not a modifier ("like a baby carrier")."""
    return before.strip().lower() in _CLAUSE_SUBJECT_LEAD


def _kind_said_apart(text: str, query: str) -> list[ProductType]:
    """The product type a Chinese modifier and a noun of the phrase name together when
    joined (遥控 + 车: 遥控车, 双肩 + 包: 双肩包), the modifier said as a clause of its own
    ("，遥控的那种", "，要双肩的")."""
    pieces = [p for p in query.split() if HAN_RUN.fullmatch(p)]
    apart = [p for p in pieces if re.search(rf"(?:^|[，,。；;\s])(?:要|是)?{re.escape(p)}的", text)]
    for modifier in apart:
        for noun in pieces:
            if noun == modifier:
                continue
            for size in range(min(3, len(noun)), 0, -1):
                compound = modifier + noun[-size:]
                named = types_named_in(compound)
                if len(named) == 1 and compound in named[0].zh_names:
                    return named
    return []


def _owned_clauses(text: str, scoping: Scoping, nouns: list[Match]) -> list[tuple[int, int]]:
    """Clauses saying the shopper has the goods they name and these still serve ("电饭煲家里
    那个还能凑合，先买个破壁机", "the kettle still works, I need a toaster"): when another clause
    names goods, what the first names is not asked for."""

    def names_goods(start: int, end: int) -> bool:
        return any(start <= m.start < end and m.first("domain") for m in nouns)

    owned = [
        (start, end)
        for start, end in scoping.clauses
        if says(text[start:end], "owned") and names_goods(start, end)
    ]
    asked = [
        (start, end)
        for start, end in scoping.clauses
        if (start, end) not in owned and names_goods(start, end)
    ]
    return owned if asked else []


def _context_clauses(
    text: str, scoping: Scoping, noun_clauses: set[int], matches: list[Match]
) -> list[tuple[int, int]]:
    """Clauses that only tell the story around a request ("老公下个月生日", "he cycles to work
    every day", "宝宝快一岁了"): when another clause names the product, a clause with no
    product noun, no known attribute and no words of asking is context, not words to search
    for. A person named as a noun ("宝宝") tells whom the request is for, not what."""

    def says_what(index: int) -> list[Match]:
        start, end = scoping.clauses[index]
        return [
            m
            for m in matches
            if start <= m.start < end
            and not (m.surface in RECIPIENT_NOUNS and _opens_clause(text[start : m.start]))
        ]

    product_clauses = {i for i in noun_clauses if any(m.first("domain") for m in says_what(i))}
    if not product_clauses:
        return []
    context: list[tuple[int, int]] = []
    for index, (start, end) in enumerate(scoping.clauses):
        if index in product_clauses or says_what(index):
            continue
        if says(text[start:end], "ask"):
            continue
        context.append((start, end))
    return context


CONVERSATIONAL_ACTS = frozenset({Act.SMALL_TALK, Act.THANKS, Act.CLOSING, Act.ASSISTANT_QUESTION})


def _request_evidence(
    *, noun_domain: str, said: bool, specs: bool, followup: Followup | None, shown: bool
) -> bool:
    """Whether the message holds anything to search with: a product noun, a preference, a
    slot, a brand, a spec, or a step from items actually shown ("cheaper", "the 2nd")."""
    builds_on_shown = (
        followup is not None and shown and (followup.kind != "details" or bool(followup.asked))
    )
    return bool(noun_domain) or said or specs or builds_on_shown


def _small_talk_of(acts: Sequence[Act]) -> SmallTalk:
    if Act.ASSISTANT_QUESTION in acts:
        return "capabilities"
    if Act.THANKS in acts:
        return "thanks"
    if Act.CLOSING in acts:
        return "done"
    if Act.SMALL_TALK in acts:
        return "greeting"
    return "ack"


def _with_request_facts(reading: Reading, text: str, session: SessionPrefState) -> Reading:
    """What the request says besides its product words: a bare size or a gift interest
    answering our question, an unusable or vague budget, whether it names any kind of
    product, a gift, shop URLs and a compatibility wish."""
    update: dict[str, object] = {}
    if session.open_questions and not any(ch.isalpha() for ch in text):
        # A message with no letters at all ("42") keeps the language of the question it
        # answers; language detection on digits alone is a guess.
        update["language"] = detect_language(session.open_questions[-1])
    slots, unusable = without_unusable_budget(reading.slots)
    size = "" if "size" in slots else requests.bare_size(text, session.open_questions)
    if size:
        slots["size"] = size
    update["slots"] = slots
    update["unusable_budget"] = unusable
    update["vague_budget"] = bool(cues.VAGUE_BUDGET.search(text))
    interest = (
        ""
        if reading.product_type or reading.types
        else requests.gift_interest(text, session.open_questions)
    )
    gift = requests.is_gift(text) or bool(interest)
    query = reading.query
    if interest and any(is_gift_question(q) for q in session.open_questions):
        # "he likes hiking" answers our gift question: search what they are into.
        query = interest
        update["intent"] = "search"
    if gift:
        update["gift"] = GiftContext(
            recipient=reading.recipient, interests=[interest] if interest else []
        )
    # "help me find something": a request whose phrase is empty or generic names no product.
    # A slot alone ("两千以内", "L码的") narrows a search already running.
    asks = bool(query) or (
        (Act.REQUEST in reading.acts or gift)
        and reading.intent == "search"
        and not (slots and session.active_search is not None)
    )
    update["vague"] = (
        asks
        and not interest
        and reading.followup is None
        and not reading.product_type
        and requests.is_vague(query)
    )
    update["query"] = query
    update["urls"] = requests.product_urls(text)
    update["compatible"] = requests.asks_compatible(text)
    if reading.intent == "chitchat":
        update["small_talk"] = small_talk_kind(text) or _small_talk_of(reading.acts)
    return reading.model_copy(update=update)


def _presented_as_reference(scoping: Scoping, brands: Sequence[str]) -> list[str]:
    """The brands named in a clause that presents them as what to replace or match
    ("代替", "平替", "a dupe for", "instead of")."""
    return [
        brand
        for brand in brands
        if any(t.term.slug == brand and says(t.clause_text, "reference") for t in scoping.terms)
    ]


def _names_goods(surface: str) -> bool:
    """Whether a term's whole surface is a product noun too ("airpods", "iphone")."""
    return any(
        m.start == 0 and m.end == len(surface)
        for m in matcher("product_type", "product_noun").candidates(surface.casefold())
    )
