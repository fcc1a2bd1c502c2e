# ruff: noqa: E501
"""The shipped policy, parsed: written by `python -m guard.shipped_policy` from
default-policy.toml. Do not edit; edit the TOML and run that command."""

# fmt: off
TOML_SIZE = 6606
RULES = (
    ('dynamic', '*', 'allow', (), ('data',), '', 'guard/default-policy.toml', 47),
    ('command', 'rm * -*r*', 'ask', (), (), 'recursive delete', 'guard/default-policy.toml', 61),
    ('command', 'rm * -*R*', 'ask', (), (), 'recursive delete', 'guard/default-policy.toml', 67),
    ('command', 'git * push * -*f*', 'ask', (), (), 'force-push rewrites shared history', 'guard/default-policy.toml', 75),
    ('command', 'git * push * +*', 'ask', (), (), 'a +refspec force-pushes and rewrites shared history', 'guard/default-policy.toml', 81),
    ('command', 'git * reset * --h*', 'ask', (), (), 'reset --hard discards uncommitted changes', 'guard/default-policy.toml', 88),
    ('command', 'git * clean * -*f*', 'ask', (), (), 'git clean deletes untracked files', 'guard/default-policy.toml', 95),
    ('command', 'chmod * -*R*', 'ask', (), (), 'recursive permission change', 'guard/default-policy.toml', 103),
    ('command', 'chmod * --rec*', 'ask', (), (), 'recursive permission change', 'guard/default-policy.toml', 109),
    ('command', 'chown * -*R*', 'ask', (), (), 'recursive owner change', 'guard/default-policy.toml', 115),
    ('command', 'chown * --rec*', 'ask', (), (), 'recursive owner change', 'guard/default-policy.toml', 121),
    ('command', 'dd * of=*', 'ask', (), (), 'dd overwrites its output raw', 'guard/default-policy.toml', 128),
    ('command', 'mkfs*', 'ask', (), (), 'mkfs erases a device', 'guard/default-policy.toml', 135),
    ('command', 'shred *', 'ask', (), (), 'shred destroys files beyond recovery', 'guard/default-policy.toml', 142),
    ('command', 'sudo *', 'ask', (), (), 'runs as another user', 'guard/default-policy.toml', 150),
    ('command', 'su *', 'ask', (), (), 'runs as another user', 'guard/default-policy.toml', 156),
    ('command', 'doas *', 'ask', (), (), 'runs as another user', 'guard/default-policy.toml', 162),
    ('command', 'guard * approvals grant *', 'ask', (), (), 'grants an approval', 'guard/default-policy.toml', 172),
    ('command', 'guard * policy trust *', 'ask', (), (), 'trusts a project policy file', 'guard/default-policy.toml', 178),
    ('command', 'guard * approve *', 'ask', (), (), 'answers a pending request', 'guard/default-policy.toml', 184),
    ('command', 'python* * -m guard *', 'ask', (), (), "runs guard's own module directly", 'guard/default-policy.toml', 190),
)
DEFAULTS = (('command', 'allow', 13), ('external_directory', 'ask', 16), ('dynamic', 'ask', 19), ('syntax', 'ask', 21))
ROOTS = ()
PROBLEMS = ()
