# shellcheck shell=bash
# guard's hook for interactive bash 4.4 or newer: every command line is checked before any of it
# runs, and a line that is not allowed is dropped whole. Load it from ~/.bashrc with
#
#     eval "$(guard init bash)"
#
# How it works (docs/shell-hooks.md has the rest):
# - PS0 is expanded once per command line, after it was read and added to the history list and
#   before anything in it runs. Its command substitution, __guard_ps0, sends the line (bash's
#   `history 1`) to a resident checker (`guard serve`, a coproc started at the prompt) and waits
#   for allow, deny or ask. On ask it runs `guard check`, which asks on the terminal.
# - The fast way, which forks nothing: Enter is bound to a macro that runs __guard_enter (bind -x,
#   in the shell itself) through a key sequence only this shell knows, then accept-line. It asks
#   the checker about the line in the editor; if the policy allows it, __guard_fast=1, and PS0's
#   arithmetic takes the flag and skips the command substitution. Nothing runs between the two
#   keys of the macro; PS2 clears the flag (a line that goes on is checked by PS0 whole), and the
#   prompt hook clears it. Any other answer, or any doubt, leaves the line to PS0.
# - To drop a line the substitution signals the shell: SIGUSR2, whose handler clears any INT trap
#   of the user's for a moment (the prompt hook puts it back) and sends the shell SIGINT, which
#   drops the whole line (lists, pipelines, loops, function definitions, `$( )`) with status 130.
# - The prompt hook, __guard_precmd, keeps every line visible in the history list: it renames
#   HISTCONTROL's ignorespace/ignoredups/ignoreboth to __guard_ignore… and HISTIGNORE's patterns
#   to __guard_… (so bash ignores them), turns HISTSIZE=0 into 1, and deletes the entries those
#   settings would have kept out, after the line ran. `set +o history` cannot be undone from a
#   prompt hook: the checker refuses it, and if it happens anyway no line runs (fail closed).
# - `fc -s`, `fc` and C-x C-e run commands without PS0; the fc function below checks them.
# Anything that fails (no checker, no answer within GUARD_HOOK_TIMEOUT seconds, default 5) falls
# back to running `guard check`; if that fails too the line is dropped. Never run unchecked. A
# checker that timed out is killed, and the line asks ("guard: checker timed out").

if [ -z "${BASH_VERSION-}" ]; then
    :
elif [ "${BASH_VERSINFO[0]}" -lt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -lt 4 ]; }; then
    printf '%s\n' "guard: bash $BASH_VERSION has no PS0 (4.4 or newer is needed); the hook is not loaded and command lines are not checked" >&2
elif [[ $- == *i* ]]; then

__guard_bin=guard # `guard init bash` writes the absolute path of the guard program here
__guard_hook_version=1

if ! builtin declare -F __guard_ps0 >/dev/null; then

__guard_ps0() {
    # PS0's command substitution: a copy of the shell, before any of the line runs. It cannot
    # change the shell; to drop the line it signals it. It prints nothing on standard output.
    # `trap -p` shows the shell's INT trap only until this copy sets a trap of its own, so the
    # request (which carries it) goes first; the checker answers whether the shell has one.
    # A checker that timed out at Enter (__guard_enter) was killed there: ask at once.
    local decision='' relay=t text='' problem='' timed_out=${__guard_timed_out-} id=$BASHPID.$RANDOM$RANDOM
    unset HISTTIMEFORMAT
    __guard_history_problem
    if [[ -z $problem && -z $timed_out && -n ${__guard_pid-} ]] && builtin kill -0 "$__guard_pid" 2>/dev/null &&
        __guard_send history '' "$id"; then
        __guard_traps
        if __guard_receive "$id"; then
            case $decision in
            allow)
                [[ -z $text ]] || builtin printf '%s\n' "$text" >&2
                return 0
                ;;
            deny)
                __guard_stop "$relay" "$text"
                return
                ;;
            ask)
                __guard_confirm "$text"
                return
                ;;
            esac
        fi
    else
        [[ -n $(builtin trap -p INT) ]] || relay=-
        __guard_traps
        if [[ -n $problem ]]; then
            __guard_stop "$relay" "guard: $problem, so guard cannot see this line; it was not run. Run \`guard doctor\`"
            return
        fi
    fi
    __guard_fallback
}

__guard_enter() {
    # Enter, just before readline accepts the line (bind -x, in the shell: no fork). Ask the
    # checker about the line in the editor; if the policy allows it with nothing to say, set
    # __guard_fast, which PS0 takes instead of forking its check. Anything else (deny, ask, no
    # answer, a line bash could read otherwise than it stands here) leaves the check to PS0.
    # Once per prompt. $1 is the shell's $_, so that $_ is the same after this call.
    [[ ${__guard_armed-} == 1 ]] || return 0
    __guard_armed=0 __guard_fast=0
    # a short id: bash reads the answer a byte at a time
    local line=${READLINE_LINE-} hist=${histchars-'!^#'} decision='' relay='' text='' problem='' timed_out='' id=e$((++__guard_seq)) __guard_gen=''
    [[ -n ${line//[[:space:]]/} && $line != *[$'\n\r']* ]] || return 0
    if [[ $- == *H* ]]; then # history expansion would make it another line
        [[ -z ${hist:0:1} || $line != *"${hist:0:1}"* ]] || return 0
        [[ -z ${hist:1:1} || $line != "${hist:1:1}"* ]] || return 0
    fi
    # shellcheck disable=SC2016 # PS0 and PS2 as the prompt hook sets them
    [[ ${PS2-} == '${__guard_skip[__guard_fast=__guard_armed=0]-}'* && ${PS0-} == *'${__guard_skip[__guard_t=__guard_fast,__guard_fast=0,__guard_t]-$(__guard_ps0)}'* ]] || return 0
    builtin shopt -q promptvars || return 0
    __guard_history_problem
    [[ -z $problem && -n ${__guard_keep-} && -n ${__guard_pid-} ]] || return 0
    builtin kill -0 "$__guard_pid" 2>/dev/null || return 0
    # bind -x exports these, and they would make the exports differ on every line (the checker
    # parses the exports again only when they changed); bash unsets them after this call
    builtin export -n READLINE_LINE READLINE_POINT READLINE_MARK
    if __guard_send typed "$line" "$id" && __guard_receive "$id"; then
        [[ $decision != allow || -n $text ]] || __guard_fast=1
    elif [[ -n $timed_out ]]; then
        __guard_timed_out=t
    fi
    return 0
}

__guard_traps() {
    # A dead checker must not kill this copy (SIGPIPE), and ^C means: drop the line.
    builtin trap '' PIPE
    builtin trap '__guard_stop "$relay" "guard: interrupted; the line was not run"; exit 130' INT
}

__guard_history_problem() {
    # Why this line may be missing from the history list (the prompt hook did not run since a
    # setting changed); sets the caller's `problem`, or leaves it empty.
    # (cheap tests first: this runs for every line, at Enter too)
    local rest=''
    [[ -z ${HISTIGNORE-} ]] || rest=:${HISTIGNORE//\\:/}
    if [[ ! -o history ]]; then
        problem="history is off (set +o history); no line can run until a new shell: press ^D"
    elif ! builtin shopt -q cmdhist; then
        problem="shopt cmdhist is off"
    elif [[ ${HISTSIZE-} == *0* ]] && __guard_zero "$HISTSIZE"; then
        problem="HISTSIZE is 0"
    elif [[ ${HISTCONTROL-} == *ignore* ]] && [[ :$HISTCONTROL: == *:ignorespace:* || :$HISTCONTROL: == *:ignoredups:* || :$HISTCONTROL: == *:ignoreboth:* ]]; then
        problem="HISTCONTROL keeps lines out of the history list"
    elif [[ -n $rest && ${rest//:__guard_/} == *:* ]]; then
        problem="HISTIGNORE keeps lines out of the history list"
    fi
}

__guard_send() {
    # Send one request to the checker: $1 mode (history or line), $2 the line (line mode), $3 id.
    [[ -n ${__guard_in-} && -n ${__guard_pid-} ]] || return 1
    {
        builtin printf '%s\0' 1 "$3" bash "$__guard_session" "$PWD" "${__guard_last-}" "${__guard_gen-}"
        builtin trap -p INT # the shell's INT trap, if any (written as is: no fork)
        builtin printf '\0%s\0' "$1"
        if [[ $1 == history ]]; then builtin history 1; else builtin printf '%s' "$2"; fi
        builtin printf '\0'
        builtin export -p
        builtin printf '\0'
    } 2>/dev/null 1>&"$__guard_in"
}

__guard_receive() {
    # Wait for the answer to request $1; sets the caller's decision, relay and text. On no answer
    # within the timeout the checker is killed (the prompt starts another), the caller's
    # timed_out is set (the line then asks) and this fails.
    local reply n=0 wait=${GUARD_HOOK_TIMEOUT:-5} status
    [[ $wait == [0-9]* && $wait != *[!0-9.]* && $wait != *.*.* && $wait != *. ]] || wait=5
    [[ -n ${__guard_out-} ]] || return 1
    while ((n++ < 100)); do
        # read's own status: inside `if ! read …; then` $? would be the negation's, always 0
        IFS= builtin read -r -d '' -t "$wait" -u "$__guard_out" reply || {
            status=$?
            if ((status > 128)); then
                builtin kill -KILL "$__guard_pid" 2>/dev/null
                timed_out=t
            fi
            return 1
        }
        [[ $reply == "$1 "* ]] || continue
        reply=${reply#"$1 "}
        decision=${reply%% *}
        reply=${reply#* }
        relay=${reply%% *}
        text=${reply#* }
        return 0
    done
    return 1
}

# guard runs without the Python settings a shell may carry: PYTHONPATH and friends could make
# guard's own Python import code from a directory an agent can write (a red-team finding).
__guard_clean="-u PYTHONPATH -u PYTHONHOME -u PYTHONSTARTUP -u PYTHONUSERBASE -u PYTHONINSPECT -u PYTHONEXECUTABLE -u PYTHONPLATLIBDIR -u PYTHONPYCACHEPREFIX -u PYTHONWARNINGS -u PYTHONBREAKPOINT"
__guard_run() {
    # shellcheck disable=SC2086  # the -u options are meant to split
    /usr/bin/env $__guard_clean "$__guard_bin" "$@"
}

__guard_confirm() {
    # The policy says ask: `guard check` asks on the terminal and records the answer. With $2
    # (the checker timed out) it asks whatever the policy says, giving $2 as the reason.
    __guard_run check ${2:+--ask-because "$2"} --session "$__guard_session" --cwd "$PWD" -- "$1" >&2 && return 0
    __guard_stop "$relay" ""
}

__guard_fallback() {
    # No answer from the checker: read the line from the history list here and run `guard check`.
    local entry number
    entry=$(builtin history 1)
    entry=${entry#"${entry%%[![:space:]]*}"}
    number=${entry%%[!0-9]*}
    entry=${entry#"$number"?}
    entry=${entry# }
    if ! __guard_number "$number" || ! __guard_number "${__guard_last-}" || ((number <= __guard_last)); then
        __guard_stop "$relay" "guard: this line did not reach bash's history list, so guard cannot see it; it was not run"
        return
    fi
    __guard_confirm "$entry" ${timed_out:+"guard: checker timed out"}
}

__guard_stop() {
    # Drop the line: print $2 (if any) and interrupt the shell: with SIGINT, or through the USR2
    # handler when $1 is t (the shell has an INT trap, which would swallow SIGINT, or nobody
    # could tell). Only SIGINT keeps DEBUG-trap preexec hooks from seeing the dropped line.
    [[ -z ${2-} ]] || builtin printf '%s\n' "$2" >&2
    if [[ $1 == t ]]; then
        builtin kill -USR2 "$$" 2>/dev/null || command kill -USR2 "$$"
    else
        builtin kill -INT "$$" 2>/dev/null || command kill -INT "$$"
    fi
}

__guard_relay() {
    # SIGUSR2 from __guard_ps0: set any INT trap aside (the prompt hook puts it back), then
    # interrupt the shell, which drops the line. Runs with standard output on /dev/null, so that
    # DEBUG-trap preexec hooks (bash-preexec) do not take it for the user's command.
    __guard_int_trap=$(builtin trap -p INT)
    builtin trap - INT
    builtin kill -INT "$$" 2>/dev/null || command kill -INT "$$"
}

__guard_precmd() {
    # First in PROMPT_COMMAND: put back what a dropped line set aside, apply the user's history
    # settings to the line that just ran, and make sure the checker and PS0 are in place.
    local status=$?
    if [[ -n ${__guard_int_trap+set} ]]; then
        builtin eval -- "$__guard_int_trap"
        unset __guard_int_trap
    fi
    __guard_keep_history
    __guard_last=$((HISTCMD - 1))
    __guard_gen=$((__guard_gen + 1))
    __guard_armed=1 __guard_fast=0 __guard_timed_out=''
    __guard_start
    # shellcheck disable=SC2016 # expanded when PS0 and PS2 are shown, not now
    [[ ${PS0-} == *'${__guard_skip[__guard_t=__guard_fast,__guard_fast=0,__guard_t]-$(__guard_ps0)}'* ]] || PS0='${__guard_skip[__guard_t=__guard_fast,__guard_fast=0,__guard_t]-$(__guard_ps0)}'${PS0-}
    # shellcheck disable=SC2016
    [[ ${PS2-} == '${__guard_skip[__guard_fast=__guard_armed=0]-}'* ]] || PS2='${__guard_skip[__guard_fast=__guard_armed=0]-}'${PS2-}
    builtin shopt -s promptvars
    builtin trap '{ __guard_relay; } >/dev/null' USR2
    return "$status"
}

__guard_keep_history() {
    # Every line must reach the history list for __guard_ps0 to see it. Settings that keep lines
    # out are renamed so that bash ignores them; their effect is applied here, after the line ran.
    local - number=${HISTCMD-} text='' pattern patterns='' word words=''
    builtin set -f
    if __guard_number "$number" && __guard_number "${__guard_last-}" && ((--number > __guard_last)); then
        __guard_patterns
        if [[ -n $__guard_nohist$patterns || ${HISTCONTROL-} == *__guard_ignore* ]]; then
            text=$(HISTTIMEFORMAT='' builtin history 1)
            text=${text#"${text%%[![:space:]]*}"}
            text=${text#*[0-9][* ] }
            if __guard_unwanted "$text"; then
                builtin history -d "$number"
            else
                __guard_prev=$text
            fi
        fi
    fi
    if [[ :${HISTCONTROL-}: == *:ignore* ]]; then
        for word in ${HISTCONTROL//:/ }; do
            [[ $word == ignorespace || $word == ignoredups || $word == ignoreboth ]] && word=__guard_$word
            words+=${words:+:}$word
        done
        HISTCONTROL=$words
    fi
    if [[ -n ${HISTIGNORE-} ]]; then
        words=''
        local IFS=:
        for pattern in ${HISTIGNORE//\\:/$'\1'}; do
            [[ -z $pattern ]] && continue
            [[ $pattern == __guard_* ]] || pattern=__guard_$pattern
            words+=${words:+:}${pattern//$'\1'/\\:}
        done
        [[ ${HISTIGNORE-} == "$words" ]] || HISTIGNORE=$words
    fi
    if __guard_zero "${HISTSIZE-}"; then
        __guard_nohist=size
        HISTSIZE=1
    elif [[ $__guard_nohist == size && ${HISTSIZE-} != 1 ]]; then
        __guard_nohist=''
    fi
    builtin shopt -q cmdhist || builtin shopt -s cmdhist
}

__guard_number() {
    [[ -n $1 && $1 != *[!0-9]* ]]
}

__guard_zero() {
    # Whether $1 is zero as bash reads HISTSIZE (no regular expressions: they set BASH_REMATCH).
    local value=${1//[[:space:]]/}
    value=${value#+}
    [[ -n $value && -z ${value//0/} ]]
}

__guard_patterns() {
    # The user's HISTIGNORE patterns, one a line, into the caller's `patterns`.
    local IFS=: pattern
    [[ -n ${HISTIGNORE-} ]] || return 0
    for pattern in ${HISTIGNORE//\\:/$'\1'}; do
        [[ -n $pattern ]] && patterns+=${pattern#__guard_}$'\n'
    done
    patterns=${patterns//$'\1'/\\:}
}

__guard_unwanted() {
    # Whether the user's settings would have kept line $1 out of the history list.
    local pattern
    [[ -n $__guard_nohist ]] && return 0
    [[ ${HISTCONTROL-} == *__guard_ignore[sb]* && $1 == ' '* ]] && return 0
    [[ ${HISTCONTROL-} == *__guard_ignore[db]* && $1 == "${__guard_prev-}" ]] && return 0
    while IFS= builtin read -r pattern; do
        [[ $pattern == '&' && $1 == "${__guard_prev-}" ]] && return 0
        # shellcheck disable=SC2053 # the pattern is meant to match
        [[ $pattern != '&' && $1 == $pattern ]] && return 0
    done <<<"${patterns%$'\n'}"
    return 1
}

__guard_start() {
    # Start the checker unless it runs. A coproc, its pipes copied to fds of our own because a
    # command substitution cannot use a coproc's. Without job control: no job, no messages.
    if [[ -n ${__guard_pid-} ]] && builtin kill -0 "$__guard_pid" 2>/dev/null; then
        return 0
    fi
    local -
    builtin set +m
    [[ -z ${__guard_in-} ]] || { exec {__guard_in}>&-; } 2>/dev/null
    [[ -z ${__guard_out-} ]] || { exec {__guard_out}<&-; } 2>/dev/null
    __guard_in='' __guard_out='' __guard_pid=''
    {
        # shellcheck disable=SC2086  # the -u options are meant to split
        coproc __guard_checker { exec /usr/bin/env $__guard_clean "$__guard_bin" serve 2>/dev/null; }
    } 2>/dev/null
    [[ -n ${__guard_checker_PID-} && -n ${__guard_checker[1]-} ]] || return 1
    __guard_pid=$__guard_checker_PID
    exec {__guard_in}>&"${__guard_checker[1]}" {__guard_out}<&"${__guard_checker[0]}"
    # A reader of our own on the checker's input (Linux): a write to it never raises SIGPIPE,
    # which would end PS0's substitution early and let the line run.
    [[ -z ${__guard_keep-} ]] || { exec {__guard_keep}<&-; } 2>/dev/null
    __guard_keep=''
    { exec {__guard_keep}<"/proc/$__guard_pid/fd/0"; } 2>/dev/null || __guard_keep=''

    builtin disown "$__guard_pid" 2>/dev/null
    return 0
}

__guard_bind() {
    # Where Enter is accept-line (emacs, vi-insert, vi-command), make it a macro: a key sequence
    # of this shell's own (random) that runs __guard_enter, then one that runs accept-line. Not
    # without line editing, nor on a terminal without clear-to-end-of-line (TERM=dumb), where
    # bind -x shows the line a second time.
    local found map rest key='' chars=abcdefghijklmnopqrstuvwxyz0123456789 n
    [[ -o emacs || -o vi ]] && [[ -n ${TERM-} && $TERM != dumb ]] || return 0
    found=$(for map in emacs vi-insert vi-command; do
        builtin printf '%s ' "$map"
        builtin bind -m "$map" -q accept-line
    done 2>/dev/null)
    for ((n = 0; n < 16; n++)); do
        key+=${chars:$((${SRANDOM:-$RANDOM} % 36)):1}
    done
    key='\C-x\C-_'$key
    while IFS=' ' builtin read -r map rest; do
        [[ $rest == *'"\C-m"'* ]] || continue
        # standard output on /dev/null: DEBUG-trap preexec hooks (bash-preexec before 0.6)
        # would take the call for the user's command
        builtin bind -m "$map" -x "\"${key}e\": { __guard_enter \"\$_\"; } >/dev/null"
        builtin bind -m "$map" "\"${key}a\": accept-line"
        builtin bind -m "$map" "\"\\C-m\": \"${key}e${key}a\""
    done <<<"$found"
}

__guard_check_line() {
    # Check line $1, which runs outside PS0 (fc); succeeds when it may run.
    # shellcheck disable=SC2034 # __guard_receive sets relay too
    local decision='' relay='' text='' timed_out='' id=$BASHPID.$RANDOM$RANDOM __guard_gen='' # no prompt count: not a typed line
    __guard_start
    if __guard_send line "$1" "$id" && __guard_receive "$id"; then
        case $decision in
        allow)
            [[ -z $text ]] || builtin printf '%s\n' "$text" >&2
            return 0
            ;;
        deny)
            builtin printf '%s\n' "$text" >&2
            return 1
            ;;
        esac
    fi
    __guard_run check ${timed_out:+--ask-because "guard: checker timed out"} --session "$__guard_session" --cwd "$PWD" -- "$1"
}

fc() {
    # fc -s, fc -e and C-x C-e run history lines without PS0. The builtin does the work; the
    # "editor" it calls is one of ours, which checks the text and fails to stop a denied one.
    local ename='' flags='' __guard_fc_pat='' __guard_fc_rep='' __guard_fc_editor
    local -a all=("$@")
    while (($#)); do
        case $1 in
        --) shift; break ;;
        -e) ename=${2-}; shift; shift ;;
        -e?*) ename=${1#-e}; shift ;;
        -[0-9]*) break ;;
        -?*) flags+=${1#-}; shift ;;
        *) break ;;
        esac
    done
    if [[ $flags == *l* ]]; then
        builtin fc "${all[@]}"
    elif [[ $flags == *s* || $ename == - ]]; then
        if [[ ${1-} == *=* ]]; then
            __guard_fc_pat=${1%%=*}
            __guard_fc_rep=${1#*=}
            shift
        fi
        builtin fc -e __guard_fc_run "$@"
    else
        __guard_fc_editor=${ename:-${FCEDIT:-${EDITOR:-vi}}}
        builtin fc -e __guard_fc_edit ${flags:+"-$flags"} "$@"
    fi
}

__guard_fc_edit() {
    builtin eval "$__guard_fc_editor"' "$1"' || return
    __guard_fc_run "$1"
}

__guard_fc_run() {
    local text
    text=$(<"$1")
    if [[ -n $__guard_fc_pat ]]; then
        text=${text//"$__guard_fc_pat"/"$__guard_fc_rep"}
        builtin printf '%s\n' "$text" >"$1"
    fi
    __guard_check_line "$text"
}

guard() {
    # `guard doctor` learns this shell's hook state from here; everything else goes to guard.
    if [[ ${1-} == doctor ]]; then
        shift
        local usr2
        usr2=$(builtin trap -p USR2)
        __guard_run doctor --shell-state <(__guard_state) "$@"
    else
        __guard_run "$@"
    fi
}

__guard_state() {
    # What `guard doctor` checks: NAME, a NUL, the value, a NUL.
    local alive=no
    [[ -n ${__guard_pid-} ]] && builtin kill -0 "$__guard_pid" 2>/dev/null && alive=yes
    builtin printf '%s\0' shell bash hook_version "$__guard_hook_version" pid "$$" \
        session "$__guard_session" ps0 "${PS0-}" prompt_command "${PROMPT_COMMAND[*]-}" \
        promptvars "$(builtin shopt -p promptvars)" usr2_trap "${usr2-}" \
        checker "${__guard_pid-}" checker_alive "$alive" \
        functions "$(builtin declare -f __guard_ps0 __guard_enter __guard_precmd __guard_stop __guard_relay \
            __guard_send __guard_receive __guard_confirm __guard_fallback __guard_traps fc)"
}

builtin readonly -f __guard_ps0 __guard_enter __guard_bind __guard_traps __guard_history_problem __guard_send __guard_receive \
    __guard_confirm __guard_fallback __guard_stop __guard_relay __guard_precmd \
    __guard_keep_history __guard_number __guard_zero __guard_patterns __guard_unwanted __guard_start __guard_check_line \
    fc __guard_fc_edit __guard_fc_run __guard_state __guard_run

fi

__guard_session=${__guard_session:-${GUARD_SESSION:-shell-$$-${EPOCHSECONDS:-0}-$RANDOM}}
: "${__guard_gen:=0}" "${__guard_nohist:=}" "${__guard_seq:=0}" "${__guard_armed:=0}" "${__guard_fast:=0}" "${__guard_t:=0}" "${__guard_timed_out:=}"
__guard_skip=([1]='') # PS0: element 1 (the line was allowed at Enter) is empty, element 0 unset
# shellcheck disable=SC2016 # expanded when PS0 and PS2 are shown, not now
[[ ${PS0-} == *'${__guard_skip[__guard_t=__guard_fast,__guard_fast=0,__guard_t]-$(__guard_ps0)}'* ]] || PS0='${__guard_skip[__guard_t=__guard_fast,__guard_fast=0,__guard_t]-$(__guard_ps0)}'${PS0-}
# shellcheck disable=SC2016
[[ ${PS2-} == '${__guard_skip[__guard_fast=__guard_armed=0]-}'* ]] || PS2='${__guard_skip[__guard_fast=__guard_armed=0]-}'${PS2-}
__guard_bind
if [[ -n ${PROMPT_COMMAND+set} && ${PROMPT_COMMAND@a} == *a* ]]; then
    [[ " ${PROMPT_COMMAND[*]-} " == *__guard_precmd* ]] || PROMPT_COMMAND=(__guard_precmd "${PROMPT_COMMAND[@]}")
elif [[ ${PROMPT_COMMAND-} != *__guard_precmd* ]]; then
    # shellcheck disable=SC2128,SC2178 # PROMPT_COMMAND is a string here
    PROMPT_COMMAND=__guard_precmd${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}
fi
builtin trap '{ __guard_relay; } >/dev/null' USR2

fi
