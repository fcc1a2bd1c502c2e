"""The agents' adapters (`guard hook AGENT`, `guard setup AGENT`): reading an agent's request,
judging it, answering it in the agent's form, and writing and reading the agent's config."""
