"""Node bodies of the turn graph; the topology is in `cartwise.agent.graph`."""
