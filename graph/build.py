"""Wiring only: router → specialist | finance → writer → critic → done | fixer | router | self_heal."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Checkpointer

from graph.context import GenerationContext
from graph.nodes.critic import critic
from graph.nodes.experts import finance, specialist
from graph.nodes.finish import done, self_heal
from graph.nodes.fixer import fixer
from graph.nodes.router import router
from graph.nodes.writer import writer
from graph.routing import after_critic, after_router
from graph.state import GenerationState


def build_graph(checkpointer: Checkpointer = None) -> CompiledStateGraph:
    builder = StateGraph(GenerationState, context_schema=GenerationContext)
    builder.add_node("router", router)
    builder.add_node("specialist", specialist)
    builder.add_node("finance", finance)
    builder.add_node("writer", writer)
    builder.add_node("critic", critic)
    builder.add_node("fixer", fixer)
    builder.add_node("done", done)
    builder.add_node("self_heal", self_heal)
    builder.add_edge(START, "router")
    builder.add_conditional_edges("router", after_router)
    builder.add_edge("specialist", "writer")
    builder.add_edge("finance", "writer")
    builder.add_edge("writer", "critic")
    builder.add_conditional_edges("critic", after_critic)
    builder.add_edge("fixer", "critic")
    builder.add_edge("done", END)
    builder.add_edge("self_heal", END)
    return builder.compile(checkpointer=checkpointer)
