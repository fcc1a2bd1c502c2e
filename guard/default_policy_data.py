# ruff: noqa: E501
"""The shipped policy, parsed: written by `python -m guard.shipped_policy` from
default-policy.toml. Do not edit; edit the TOML and run that command."""

# fmt: off
TOML_SIZE = 10227
RULES = (
    ('external_directory', '~/**', 'allow', ('read', 'chdir'), (), '', 'guard/default-policy.toml', 32, 'interactive'),
    ('dynamic', '*', 'allow', (), ('data',), '', 'guard/default-policy.toml', 104, ''),
    ('command', 'rm * -*r*', 'ask', (), (), 'recursive delete', 'guard/default-policy.toml', 118, ''),
    ('command', 'rm * -*R*', 'ask', (), (), 'recursive delete', 'guard/default-policy.toml', 124, ''),
    ('command', 'git * push * -*f*', 'ask', (), (), 'force-push rewrites shared history', 'guard/default-policy.toml', 132, ''),
    ('command', 'git * push * +*', 'ask', (), (), 'a +refspec force-pushes and rewrites shared history', 'guard/default-policy.toml', 138, ''),
    ('command', 'git * reset * --h*', 'ask', (), (), 'reset --hard discards uncommitted changes', 'guard/default-policy.toml', 145, ''),
    ('command', 'git * clean * -*f*', 'ask', (), (), 'git clean deletes untracked files', 'guard/default-policy.toml', 152, ''),
    ('command', 'chmod * -*R*', 'ask', (), (), 'recursive permission change', 'guard/default-policy.toml', 160, ''),
    ('command', 'chmod * --rec*', 'ask', (), (), 'recursive permission change', 'guard/default-policy.toml', 166, ''),
    ('command', 'chown * -*R*', 'ask', (), (), 'recursive owner change', 'guard/default-policy.toml', 172, ''),
    ('command', 'chown * --rec*', 'ask', (), (), 'recursive owner change', 'guard/default-policy.toml', 178, ''),
    ('command', 'dd * of=*', 'ask', (), (), 'dd overwrites its output raw', 'guard/default-policy.toml', 185, ''),
    ('command', 'mkfs*', 'ask', (), (), 'mkfs erases a device', 'guard/default-policy.toml', 192, ''),
    ('command', 'shred *', 'ask', (), (), 'shred destroys files beyond recovery', 'guard/default-policy.toml', 199, ''),
    ('command', 'sudo *', 'ask', (), (), 'runs as another user', 'guard/default-policy.toml', 207, ''),
    ('command', 'su *', 'ask', (), (), 'runs as another user', 'guard/default-policy.toml', 213, ''),
    ('command', 'doas *', 'ask', (), (), 'runs as another user', 'guard/default-policy.toml', 219, ''),
    ('command', 'guard * approvals grant *', 'ask', (), (), 'grants an approval', 'guard/default-policy.toml', 229, ''),
    ('command', 'guard * policy trust *', 'ask', (), (), 'trusts a project policy file', 'guard/default-policy.toml', 235, ''),
    ('command', 'guard * approve *', 'ask', (), (), 'answers a pending request', 'guard/default-policy.toml', 241, ''),
    ('command', 'python* * -m guard *', 'ask', (), (), "runs guard's own module directly", 'guard/default-policy.toml', 247, ''),
)
DEFAULTS = (('command', 'allow', 13), ('external_directory', 'ask', 16), ('dynamic', 'ask', 19), ('syntax', 'ask', 21), ('protected', 'ask', 23))
ROOTS = ()
PROBLEMS = ()
PROTECTED = (('~/.ssh', (), 47), ('~/.gnupg', (), 47), ('~/.aws', (), 47), ('~/.azure', (), 47), ('~/.config/gcloud', (), 47), ('~/.kube', (), 47), ('~/.docker/config.json', (), 47), ('~/.netrc', (), 47), ('~/.git-credentials', (), 47), ('~/.config/git/credentials', (), 47), ('~/.npmrc', (), 47), ('~/.yarnrc', (), 47), ('~/.pypirc', (), 47), ('~/.cargo/credentials*', (), 47), ('~/.gem/credentials', (), 47), ('~/.config/gh/hosts.yml', (), 47), ('~/.terraform.d/credentials*', (), 47), ('~/.vault-token', (), 47), ('~/.pgpass', (), 47), ('~/.my.cnf', (), 47), ('~/.password-store', (), 47), ('~/.local/share/keyrings', (), 47), ('~/.gnome2/keyrings', (), 47), ('~/Library/Keychains', (), 47), ('~/.config/op', (), 47), ('~/.1password', (), 47), ('~/.bashrc', (), 47), ('~/.bash_profile', (), 47), ('~/.bash_login', (), 47), ('~/.bash_logout', (), 47), ('~/.bash_aliases', (), 47), ('~/.profile', (), 47), ('~/.zshrc', (), 47), ('~/.zshenv', (), 47), ('~/.zprofile', (), 47), ('~/.zlogin', (), 47), ('~/.zlogout', (), 47), ('~/.inputrc', (), 47), ('~/.config/fish', (), 47), ('~/.pam_environment', (), 47), ('~/.config/environment.d', (), 47), ('~/.xprofile', (), 47), ('~/.xinitrc', (), 47), ('~/.xsession', (), 47), ('~/.config/autostart', (), 47), ('/etc/shadow', (), 47), ('/etc/gshadow', (), 47), ('/etc/shadow-', (), 47), ('/etc/gshadow-', (), 47), ('/etc/sudoers', (), 47), ('/etc/sudoers.d', (), 47), ('/etc/cron*', (), 47), ('/var/spool/cron', (), 47), ('/etc/ssh/ssh_host_*_key', (), 47), ('/etc/systemd/system', (), 47), ('/lib/systemd/system', (), 47), ('/usr/lib/systemd/system', (), 47), ('~/.config/systemd/user', (), 47), ('/proc/*/mem', (), 47), ('/proc/*/root', (), 47), ('/proc/*/environ', (), 47), ('/dev/sd*', (), 47), ('/dev/nvme*', (), 47), ('/dev/hd*', (), 47), ('/dev/vd*', (), 47), ('/dev/xvd*', (), 47), ('/dev/mmcblk*', (), 47), ('/dev/mapper', (), 47), ('/dev/mem', (), 47), ('/dev/kmem', (), 47), ('/dev/port', (), 47), ('.git/hooks', ('write',), 68), ('.git/config', ('write',), 68), ('.guard.toml', ('write',), 68), ('.envrc', ('write',), 68), ('.claude/settings*.json', ('write',), 68), ('.claude/commands', ('write',), 68), ('.vscode/settings.json', ('write',), 68), ('.vscode/tasks.json', ('write',), 68), ('.gemini/settings.json', ('write',), 68), ('.codex', ('write',), 68), ('.cursor/hooks.json', ('write',), 68), ('.github/hooks', ('write',), 68), ('~/.claude', ('write',), 68), ('~/.codex', ('write',), 68), ('~/.gemini', ('write',), 68), ('~/.cursor', ('write',), 68), ('~/.copilot', ('write',), 68), ('~/.config/opencode', ('write',), 68), ('.clinerules/hooks', ('write',), 68), ('.opencode/plugins', ('write',), 68), ('~/Documents/Cline/Hooks', ('write',), 68), ('~/Documents/Cline/Rules/Hooks', ('write',), 68), ('~/.gitconfig', ('write',), 68), ('~/.config/git', ('write',), 68), ('~/.local/bin', ('write',), 68), ('/etc', ('write',), 68), ('/usr', ('write',), 68), ('/boot', ('write',), 68), ('/bin', ('write',), 68), ('/sbin', ('write',), 68), ('/lib', ('write',), 68), ('/lib32', ('write',), 68), ('/lib64', ('write',), 68), ('/libx32', ('write',), 68), ('/opt', ('write',), 68), ('/var/lib', ('write',), 68), ('/System', ('write',), 68), ('/Library', ('write',), 68))
