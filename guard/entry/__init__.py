"""Where lines come in: guarded-bash, the shell hooks' checker, the resident checker, agent
adapters."""
