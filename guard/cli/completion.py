"""`guard completion bash|zsh`: a completion script built from the command line itself, so it
always knows every subcommand, verb, option and value this guard has.

    eval "$(guard completion bash)"     # in ~/.bashrc
    eval "$(guard completion zsh)"      # in ~/.zshrc, after compinit

Values come from the parser too: an argument's `choices` (`guard setup <TAB>` the agents,
`guard init <TAB>` the shells, `--surface <TAB>` the surfaces), and an argument marked with a
`complete` attribute from a command at TAB time (`guard approvals revoke <TAB>`: the ids that
`guard approvals list --ids` prints).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from guard.cli import summary

# what a `complete` mark names -> the guard arguments that print those values, one a line
DYNAMIC = {"approvals": "approvals list --ids"}


@dataclass(frozen=True, slots=True)
class Words:
    """What can be typed after a command (or a command's verb)."""

    help: str
    options: list[tuple[str, str]]  # (flag, help)
    values: list[str]  # the first positional argument's choices
    dynamic: str = ""  # or a key of DYNAMIC
    option_values: dict[str, list[str]] = field(default_factory=dict)  # flag -> its choices
    verbs: dict[str, Words] = field(default_factory=dict)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("completion", help=summary("completion"))
    p.add_argument("shell", choices=("bash", "zsh"), help="the shell to complete in")
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    from guard.cli import build_parser

    tree = commands(build_parser())
    sys.stdout.write(bash(tree) if args.shell == "bash" else zsh(tree))
    return 0


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[
    argparse.ArgumentParser
] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _words(parser: argparse.ArgumentParser, text: str) -> Words:
    options = [
        (flag, " ".join((action.help or "").split()))
        for action in parser._actions
        for flag in action.option_strings
        if flag.startswith("--") or flag == "-h"
    ]
    option_values = {
        flag: [str(c) for c in action.choices]
        for action in parser._actions
        if action.option_strings and action.choices is not None
        and not isinstance(action, argparse._SubParsersAction)
        for flag in action.option_strings
    }  # fmt: skip
    first = next(
        (a for a in parser._actions if not a.option_strings
         and not isinstance(a, argparse._SubParsersAction)),
        None,
    )  # fmt: skip
    values = [str(c) for c in first.choices] if first is not None and first.choices else []
    dynamic = str(getattr(first, "complete", "")) if first is not None else ""
    words = Words(text, options, values, dynamic, option_values)
    inner = _subparsers(parser)
    if inner is not None:
        helps = {a.dest: a.help or "" for a in inner._choices_actions}
        for verb, grand in inner.choices.items():
            words.verbs[verb] = _words(grand, helps.get(verb, ""))
    return words


def commands(parser: argparse.ArgumentParser) -> dict[str, Words]:
    """Each command with what can be typed after it."""
    sub = _subparsers(parser)
    if sub is None:
        return {}
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    return {name: _words(child, helps.get(name, "")) for name, child in sub.choices.items()}


def _bash_case(key: str, words: Words) -> str:
    """One `case` branch: sets options, values and (after an option with choices) choices."""
    options = " ".join(flag for flag, _ in words.options)
    values = " ".join(sorted(words.verbs)) or " ".join(words.values)
    if words.dynamic:
        values = f'$("${{COMP_WORDS[0]}}" {DYNAMIC[words.dynamic]} 2>/dev/null)'
    after = "".join(
        f"                {flag}) choices='{' '.join(choices)}' ;;\n"
        for flag, choices in words.option_values.items()
    )
    return (
        f"        {key})\n"
        f"            options='{options}'\n"
        f'            values="{values}"\n'
        + (f"            case $prev in\n{after}            esac\n" if after else "")
        + "            ;;"
    )


def bash(tree: dict[str, Words]) -> str:
    cases = []
    for name, words in tree.items():
        cases.append(_bash_case(name, words))
        cases += [_bash_case(f"{name}/{verb}", w) for verb, w in words.verbs.items()]
    with_verbs = " ".join(name for name, w in tree.items() if w.verbs)
    names = " ".join(tree)
    return f"""# guard completion for bash: eval "$(guard completion bash)" in ~/.bashrc
_guard_complete() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
    local key= options= values= choices= first=2 i
    if (( COMP_CWORD == 1 )); then
        COMPREPLY=($(compgen -W '{names} --help --version' -- "$cur"))
        return
    fi
    key=${{COMP_WORDS[1]}}
    case " {with_verbs} " in
    *" $key "*)
        if (( COMP_CWORD > 2 )); then key=$key/${{COMP_WORDS[2]}}; first=3; fi ;;
    esac
    case $key in
{chr(10).join(cases)}
    esac
    for (( i = first; i < COMP_CWORD; i++ )); do  # a value given already: no more values
        [[ ${{COMP_WORDS[i]}} != -* ]] && values=
    done
    if [[ -n $choices ]]; then
        COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    elif [[ $cur == -* || -z $values ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
    fi
}}
complete -o default -F _guard_complete guard
"""


def _zsh_quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "'\\''").replace(":", "\\:").replace(
        "[", "\\["
    ).replace("]", "\\]")


def _zsh_specs(words: Words) -> str:
    """The `_arguments` specs: options (with their choices), the first value, then files."""
    specs = []
    for flag, text in words.options:
        choices = words.option_values.get(flag)
        value = f":{flag.lstrip('-')}:({' '.join(choices)})" if choices else ""
        specs.append(f"'{flag}[{_zsh_quote(text)}]{value}'")
    if words.dynamic:
        specs.append(f"'1:{words.dynamic}:_guard_{words.dynamic}'")
    elif words.values:
        specs.append(f"'1:value:({' '.join(words.values)})'")
    specs.append("'*:file:_files'")
    return " ".join(specs)


def zsh(tree: dict[str, Words]) -> str:
    commands_list = "\n".join(f"        '{n}:{_zsh_quote(w.help)}'" for n, w in tree.items())
    cases = []
    for name, words in tree.items():
        if words.verbs:
            verb_list = " ".join(f"'{v}:{_zsh_quote(w.help)}'" for v, w in words.verbs.items())
            inner = [
                f"                ({verb}) _arguments {_zsh_specs(w)} ;;"
                for verb, w in words.verbs.items()
            ]
            cases.append(
                f"        ({name})\n"
                f"            if (( CURRENT == 3 )); then\n"
                f"                local -a verbs=({verb_list})\n"
                f"                _describe verb verbs\n"
                f"            else\n"
                f"                local verb=$words[3]; shift 2 words; (( CURRENT -= 2 ))\n"
                f"                case $verb in\n" + "\n".join(inner) + "\n"
                "                esac\n"
                "            fi ;;"
            )
        else:
            cases.append(f"        ({name}) shift words; (( CURRENT-- )); "
                         f"_arguments {_zsh_specs(words)} ;;")  # fmt: skip
    dynamic = "".join(
        f"_guard_{kind}() {{\n"
        f"    local -a found=(${{(f)\"$(${{_guard_program:-guard}} {argv} 2>/dev/null)\"}})\n"
        f"    compadd -a found\n"
        f"}}\n"
        for kind, argv in DYNAMIC.items()
    )
    return f"""#compdef guard
# guard completion for zsh: eval "$(guard completion zsh)" in ~/.zshrc, after compinit
{dynamic}_guard() {{
    local _guard_program=$words[1]
    if (( CURRENT == 2 )); then
        local -a cmds=(
{commands_list}
        )
        _describe command cmds
        return
    fi
    case $words[2] in
{chr(10).join(cases)}
    esac
}}
compdef _guard guard
"""
