"""A refinement searches within the running search's product types at recall; a new search
is kept to its named types only after recall, so a loosely named type cannot empty it."""

from __future__ import annotations

from cartwise.agent.dialogue import request_filters
from cartwise.agent.followups import Resolution
from cartwise.agent.state import TurnState
from cartwise.memory.session_state import ActiveSearch
from cartwise.recall.indexes.base import SearchFilters

SUITCASES = ActiveSearch(product_type="拉杆箱", phrase="拉杆箱", product_types=["suitcase"])


def filters_for(resolution: Resolution) -> SearchFilters:
    state: TurnState = {"resolution": resolution}
    return request_filters(SearchFilters(), state)


def test_a_refinement_is_filtered_to_the_searchs_types() -> None:
    refined = Resolution(kind="refine", search=SUITCASES, runs_search=True)
    assert filters_for(refined).product_types == frozenset({"suitcase"})


def test_a_new_search_is_not_filtered_by_type_at_recall() -> None:
    fresh = Resolution(kind="search", search=SUITCASES, runs_search=True, new_search=True)
    assert filters_for(fresh).product_types == frozenset()
