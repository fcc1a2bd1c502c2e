# ruff: noqa: E501
"""The shipped policy, parsed: written by `python -m guard.shipped_policy` from
default-policy.toml. Do not edit; edit the TOML and run that command."""

# fmt: off
TOML_SIZE = 4726
RULES = (
    ('dynamic', '*', 'allow', (), ('data',), '', 'guard/default-policy.toml', 50),
    ('effect', 'publish:git-remote', 'allow', (), (), '', 'guard/default-policy.toml', 69),
    ('command', 'guard * approvals grant *', 'ask', (), (), 'grants an approval', 'guard/default-policy.toml', 78),
    ('command', 'guard * policy trust *', 'ask', (), (), 'trusts a project policy file', 'guard/default-policy.toml', 84),
    ('command', 'guard * approve *', 'ask', (), (), 'answers a pending request', 'guard/default-policy.toml', 90),
    ('command', 'python* * -m guard *', 'ask', (), (), "runs guard's own module directly", 'guard/default-policy.toml', 96),
)
DEFAULTS = (('command', 'allow', 13), ('external_directory', 'ask', 16), ('dynamic', 'ask', 19), ('syntax', 'ask', 21), ('effect', 'ask', 24))
ROOTS = ()
PROBLEMS = ()
