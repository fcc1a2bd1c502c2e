"""`guard completion bash|zsh`: a completion script built from the command line itself, so it
always knows every subcommand, verb and option this guard has.

    eval "$(guard completion bash)"     # in ~/.bashrc
    eval "$(guard completion zsh)"      # in ~/.zshrc, after compinit
"""

from __future__ import annotations

import argparse
import sys

Tree = dict[str, tuple[str, list[tuple[str, str]], dict[str, tuple[str, list[tuple[str, str]]]]]]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("completion", help="print a completion script for bash or zsh")
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


def _options(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    return [
        (flag, " ".join((action.help or "").split()))
        for action in parser._actions
        for flag in action.option_strings
        if flag.startswith("--") or flag == "-h"
    ]


def commands(parser: argparse.ArgumentParser) -> Tree:
    """command -> (help, options, verbs), verb -> (help, options)."""
    sub = _subparsers(parser)
    tree: Tree = {}
    if sub is None:
        return tree
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    for name, child in sub.choices.items():
        verbs: dict[str, tuple[str, list[tuple[str, str]]]] = {}
        inner = _subparsers(child)
        if inner is not None:
            inner_helps = {a.dest: a.help or "" for a in inner._choices_actions}
            for verb, grand in inner.choices.items():
                verbs[verb] = (inner_helps.get(verb, ""), _options(grand))
        tree[name] = (helps.get(name, ""), _options(child), verbs)
    return tree


def bash(tree: Tree) -> str:
    cases = []
    for name, (_, options, verbs) in tree.items():
        words = " ".join(sorted(verbs)) or " ".join(flag for flag, _ in options)
        cases.append(f"        {name}) words='{words}' ;;")
        for verb, (_, verb_options) in verbs.items():
            flags = " ".join(flag for flag, _ in verb_options)
            cases.append(f"        {name}/{verb}) words='{flags}' ;;")
    names = " ".join(tree)
    return f"""# guard completion for bash: eval "$(guard completion bash)" in ~/.bashrc
_guard_complete() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} key= words=
    if (( COMP_CWORD == 1 )); then
        words='{names} --help --version'
    else
        key=${{COMP_WORDS[1]}}
        (( COMP_CWORD > 2 )) && [[ ${{COMP_WORDS[2]}} != -* ]] && key=$key/${{COMP_WORDS[2]}}
        case $key in
{chr(10).join(cases)}
        *) key=${{COMP_WORDS[1]}}
           case $key in
{chr(10).join("  " + c for c in cases if "/" not in c.split(")")[0])}
           esac ;;
        esac
    fi
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}}
complete -o default -F _guard_complete guard
"""


def _zsh_quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "'\\''").replace(":", "\\:").replace(
        "[", "\\["
    ).replace("]", "\\]")


def zsh(tree: Tree) -> str:
    commands_list = "\n".join(f"        '{n}:{_zsh_quote(h)}'" for n, (h, _, _) in tree.items())
    cases = []
    for name, (_, options, verbs) in tree.items():
        if verbs:
            verb_list = " ".join(f"'{v}:{_zsh_quote(h)}'" for v, (h, _) in verbs.items())
            inner = []
            for verb, (_, verb_options) in verbs.items():
                specs = " ".join(f"'{f}[{_zsh_quote(h)}]'" for f, h in verb_options)
                inner.append(f"                ({verb}) _arguments {specs} '*::arg:_files' ;;")
            cases.append(
                f"        ({name})\n"
                f"            if (( CURRENT == 3 )); then\n"
                f"                local -a verbs=({verb_list})\n"
                f"                _describe verb verbs\n"
                f"            else\n"
                f"                case $words[3] in\n" + "\n".join(inner) + "\n"
                "                esac\n"
                "            fi ;;"
            )
        else:
            specs = " ".join(f"'{f}[{_zsh_quote(h)}]'" for f, h in options)
            cases.append(f"        ({name}) _arguments {specs} '*::arg:_files' ;;")
    return f"""#compdef guard
# guard completion for zsh: eval "$(guard completion zsh)" in ~/.zshrc, after compinit
_guard() {{
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
