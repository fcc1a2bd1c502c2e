# guard's hook for interactive zsh 5.x: every command line is checked before any of it runs, and
# a line that is not allowed is dropped whole. Load it from ~/.zshrc with
#
#     eval "$(guard init zsh)"
#
# How it works (docs/shell-hooks.md has the rest):
# - Enter runs __guard_accept_line first (the accept-line widget): a line the checker denies is
#   dropped there with send-break, which leaves $? non-zero for the precmd hooks (prompt themes
#   read it there); what it allows goes on, and preexec lets that exact text through once.
# - zsh hands preexec the complete line (history expansion done, multi-line joined) before any
#   of it runs. __guard_preexec, first in preexec_functions, sends it to a resident checker
#   (`guard serve`, a coproc started at the prompt) and waits for allow, deny or ask. On ask it
#   runs `guard check`, which asks on the terminal.
# - To drop a line it sets INT traps aside for the rest of the function (localtraps) and sends
#   the shell SIGINT: the whole line is dropped, function definitions included.
# - zsh puts `$?` back after every hook function, so a dropped line would leave it as it was.
#   Commands that `sched` runs at the prompt are no hook function: the hook schedules one that
#   sets `$?` to 130, as bash's hook does (precmd hooks run before it and see the old status).
# - `fc` and `r` run history lines without preexec; the functions below check them.
# Anything that fails (no checker, no answer within GUARD_HOOK_TIMEOUT seconds, default 5) falls
# back to running `guard check`; if that fails too the line is dropped. Never run unchecked.

if [[ -n ${ZSH_VERSION-} && -o interactive ]]; then

typeset -g __guard_bin=guard # `guard init zsh` writes the absolute path of the guard program here
typeset -g __guard_hook_version=1
typeset -g __guard_session=${__guard_session:-${GUARD_SESSION:-shell-$$-${EPOCHSECONDS:-0}-$RANDOM}}
typeset -g __guard_pid=${__guard_pid-} __guard_in=${__guard_in-} __guard_out=${__guard_out-}
typeset -gi __guard_gen
typeset -g __guard_passed= __guard_pass_said= __guard_said= __guard_next_accept=${__guard_next_accept-}

__guard_preexec() {
    # Runs in the shell itself, before any of the line in $1 runs (zsh passes an empty $1 when
    # history is off; $3 is then the text to run).
    emulate -L zsh
    setopt localtraps
    local line=${1:-$3} decision= relay= text= timed_out= id=$$.$RANDOM$RANDOM
    if [[ -n $__guard_passed && $line == "$__guard_passed" ]]; then
        __guard_passed= # checked at Enter (__guard_accept_line), this very text: once
        [[ -z $__guard_pass_said ]] || print -ru2 -- $__guard_pass_said
        __guard_pass_said=
        return 0
    fi
    __guard_passed=
    if [[ -z $line ]]; then
        print -ru2 -- "guard: zsh did not pass this line to its hook; it was not run"
    elif __guard_start && __guard_send line $line $id && __guard_receive $id; then
        case $decision in
        (allow)
            [[ -z $text ]] || print -ru2 -- $text
            return 0
            ;;
        (deny)
            print -ru2 -- $text
            ;;
        (*)
            __guard_confirm $line && return 0
            ;;
        esac
    else
        __guard_confirm $line ${timed_out:+"guard: checker timed out"} && return 0
    fi
    { __guard_refuse } always { TRY_BLOCK_ERROR=0 } # an error there must not stop the drop
    trap - INT
    kill -INT $$ 2>/dev/null || command kill -INT $$
}

__guard_refuse() {
    # The line in preexec is about to be dropped: have the prompt after it set $? to 130.
    # `sched +0` runs its command at the next prompt, after the precmd hooks, at the top level
    # (no function whose return puts $? back); `&& :` keeps ERR_EXIT and ZERR traps out of it,
    # and passing "$_" leaves $_ (the last word of the last command) as it was.
    # Without zsh/sched the line is dropped all the same, with $? as it was.
    emulate -L zsh
    typeset -g __guard_refused=$__guard_gen
    zmodload zsh/sched 2>/dev/null && builtin sched +0 '\__guard_status "$_" && :' 2>/dev/null
}

__guard_status() {
    # What sched runs at the prompt after a dropped line: 130 if the line was dropped since the
    # last prompt (the prompt hook counts prompts), else the status as it was.
    local st=$?
    emulate -L zsh
    if [[ -n ${__guard_refused-} && $__guard_refused == $(( __guard_gen - 1 )) ]]; then
        __guard_refused=
        return 130
    fi
    __guard_refused=
    return $st
}

__guard_accept_line() {
    # Enter (the accept-line widget): check the line here, before zsh takes it (__guard_at_enter
    # decides). A line refused here ends the line editor (send-break), which leaves $? non-zero
    # for the precmd hooks — prompt themes read it there — and the scheduled __guard_status
    # makes it 130 after them. The editor's own commands run here, under the user's options,
    # not guard's: a prompt drawn again after a question is expanded as the user's theme wants.
    local __guard_enter=accept __guard_asked=
    __guard_at_enter
    # after a question the line is drawn again first: send-break would draw a prompt that
    # needs expanding (prompt_subst) unexpanded
    [[ -z $__guard_asked ]] || zle -R
    if [[ $__guard_enter == drop ]]; then
        zle .send-break
    else
        zle ${__guard_next_accept:-.accept-line}
    fi
}

__guard_at_enter() {
    # Decide at Enter whether line $BUFFER is accepted or dropped (the caller's __guard_enter).
    # A line the policy asks about is asked about here too (__guard_ask_at_enter), so that a
    # refusal at the question leaves $? non-zero for precmd as a denial does. A line allowed
    # here is passed to preexec as checked (__guard_passed, this exact text, and the word to
    # say with it). What cannot be settled here goes on to preexec, which checks it as before:
    # a continuation line ($PREBUFFER), a heredoc (its body follows), history expansion (`!`:
    # preexec sees other text), a line zsh cannot parse yet, no checker. ^O and other accepting
    # widgets go to preexec too.
    emulate -L zsh
    __guard_passed= __guard_pass_said=
    local decision= relay= text= timed_out= id=$$.$RANDOM$RANDOM line=$BUFFER
    [[ -z $PREBUFFER && $line == *[^[:space:]]* && $line != *['!']* && $line != *'<<'* ]] &&
        __guard_start || return 0
    # no prompt count (empty): preexec's request for this line is the one that counts prompts
    if () { local __guard_gen=; __guard_send line "$1" "$2" } $line $id &&
        __guard_receive $id; then
        case $decision in
        (allow)
            __guard_passed=$line __guard_pass_said=$text # a word to say: preexec says it
            ;;
        (deny)
            __guard_said=$text # printed at the prompt: printed here, ZLE would redraw the line
            __guard_drop_at_enter $line
            ;;
        (*)
            __guard_ask_at_enter $line
            ;;
        esac
    elif [[ -n $timed_out ]]; then
        __guard_ask_at_enter $line "guard: checker timed out"
    fi
    return 0
}

__guard_ask_at_enter() {
    # The policy asks about line $1 (or the checker timed out, $2 the reason): ask here, below
    # the line (zle -I hands the terminal over, as fzf's widgets do; zsh draws the line again
    # after it). Allowed: preexec lets this exact text through; refused: dropped at Enter.
    emulate -L zsh
    # A line zsh cannot parse yet (a `for` awaiting its `do`, an open quote) is not run now:
    # zsh reads on or says why, and preexec checks what it then runs.
    command zsh -fn -c $1 2>/dev/null </dev/null || return 0
    zle -I
    __guard_asked=t
    if __guard_confirm $1 $2 </dev/tty; then
        __guard_passed=$1
    else
        __guard_drop_at_enter $1
    fi
}

__guard_drop_at_enter() {
    # Drop line $1 at Enter: into the history as an accepted line would be, $? to 130 at the
    # prompt, and the line editor ended without running it (by __guard_accept_line).
    emulate -L zsh
    print -rs -- $1
    # an error in a widget would stop it before the line is dropped: nothing that can fail
    [[ ${(t)__guard_refused-} == *readonly* ]] || { __guard_refuse } always { TRY_BLOCK_ERROR=0 }
    __guard_enter=drop
}

# guard runs without the Python settings a shell may carry: PYTHONPATH and friends could make
# guard's own Python import code from a directory an agent can write (a red-team finding).
typeset -g __guard_clean="-u PYTHONPATH -u PYTHONHOME -u PYTHONSTARTUP -u PYTHONUSERBASE -u PYTHONINSPECT -u PYTHONEXECUTABLE -u PYTHONPLATLIBDIR -u PYTHONPYCACHEPREFIX -u PYTHONWARNINGS -u PYTHONBREAKPOINT"
__guard_run() {
    /usr/bin/env ${=__guard_clean} $__guard_bin "$@"
}

__guard_confirm() {
    # The policy says ask, or the checker could not answer: `guard check` decides, asking on the
    # terminal when it must; with $2 (the checker timed out) it asks, giving $2 as the reason.
    __guard_run check ${2:+--ask-because} ${2:+"$2"} --session $__guard_session --cwd $PWD -- $1
}

__guard_send() {
    # Send one request to the checker: $1 mode, $2 the line, $3 id; the environment follows.
    emulate -L zsh
    local name
    local -a env
    for name in ${(k)parameters[(R)*export*]}; do
        env+=("$name=${(P)name}")
    done
    print -rN -- 1 "$3" zsh "$__guard_session" "$PWD" '' "$__guard_gen" '' "$1" "$2" $env '' \
        2>/dev/null >&$__guard_in
}

__guard_receive() {
    # Wait for the answer to request $1; sets the caller's decision, relay and text. With no
    # answer within the timeout the checker is killed (the next line starts another) and the
    # caller's timed_out is set (the line then asks).
    emulate -L zsh
    local reply wait=${GUARD_HOOK_TIMEOUT:-5} n=0
    [[ $wait == <->(.<->|) ]] || wait=5
    while (( n++ < 100 )); do
        if ! IFS= read -r -d '' -t $wait -u $__guard_out reply; then
            # a timeout and a checker that died look the same to zsh's read: kill it either way
            kill -KILL $__guard_pid 2>/dev/null && timed_out=t
            [[ -z $__guard_in ]] || exec {__guard_in}>&-
            [[ -z $__guard_out ]] || exec {__guard_out}<&-
            __guard_in= __guard_out= __guard_pid=
            return 1
        fi
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

__guard_start() {
    # Start the checker unless it runs: a coproc whose pipes are copied to fds of our own,
    # without job control (no job, no messages) and disowned.
    emulate -L zsh
    setopt nomonitor
    if [[ -n $__guard_pid && -n $__guard_in ]] && kill -0 $__guard_pid 2>/dev/null; then
        return 0
    fi
    [[ -z $__guard_in ]] || exec {__guard_in}>&-
    [[ -z $__guard_out ]] || exec {__guard_out}<&-
    __guard_in= __guard_out= __guard_pid=
    coproc /usr/bin/env ${=__guard_clean} $__guard_bin serve 2>/dev/null
    __guard_pid=$!
    exec {__guard_in}>&p {__guard_out}<&p
    disown %+ 2>/dev/null
    return 0
}

__guard_precmd() {
    # Keep the guard first among the preexec hooks, and the checker running while the user types.
    # zsh puts $? back after a hook; returning 0 keeps a ZERR trap from seeing the hook fail.
    emulate -L zsh
    __guard_gen+=1
    __guard_passed= __guard_pass_said=
    [[ -z $__guard_said ]] || { print -ru2 -- $__guard_said; __guard_said= }
    [[ ${preexec_functions[1]-} == __guard_preexec ]] ||
        preexec_functions=(__guard_preexec ${preexec_functions:#__guard_preexec})
    __guard_start
    return 0
}

__guard_check_line() {
    # Check line $1, which runs outside preexec (fc, r); succeeds when it may run.
    emulate -L zsh
    local decision= relay= text= timed_out= id=$$.$RANDOM$RANDOM __guard_gen= # no prompt count: not typed
    if __guard_start && __guard_send line $1 $id && __guard_receive $id; then
        case $decision in
        (allow)
            [[ -z $text ]] || print -ru2 -- $text
            return 0
            ;;
        (deny)
            print -ru2 -- $text
            return 1
            ;;
        esac
    fi
    __guard_confirm $1 ${timed_out:+"guard: checker timed out"}
}

fc() {
    # fc and r run history lines without preexec. The builtin does the work; the "editor" it
    # calls is one of ours, which checks the text and fails to stop a denied one.
    emulate -L zsh
    local ename= arg __guard_fc_editor
    local -a pass
    local -i i=1
    while (( i <= $# )); do
        arg=${@[i]}
        case $arg in
        (--|-<->*|[^-]*) pass+=("${(@)@[i,-1]}"); break ;;
        (-e) ename=${@[i+1]-}; (( i++ )) ;;
        (-e?*) ename=${arg#-e} ;;
        (-s) ename=- ;;
        (-[mt]) pass+=($arg ${@[i+1]-}); (( i++ )) ;;
        (-*[lpPRWAa]*) builtin fc "$@"; return ;;
        (*) pass+=($arg) ;;
        esac
        (( i++ ))
    done
    if [[ $ename == - ]]; then
        builtin fc -e __guard_fc_run $pass
    else
        __guard_fc_editor=${ename:-${FCEDIT:-${EDITOR:-vi}}}
        builtin fc -e __guard_fc_edit $pass
    fi
}

r() {
    fc -e - "$@"
}

__guard_fc_edit() {
    emulate -L zsh
    eval "$__guard_fc_editor"' "$1"' || return
    __guard_fc_run $1
}

__guard_fc_run() {
    emulate -L zsh
    __guard_check_line "$(<$1)"
}

guard() {
    # `guard doctor` learns this shell's hook state from here; everything else goes to guard.
    emulate -L zsh
    if [[ ${1-} == doctor ]]; then
        shift
        __guard_run doctor --shell-state <(__guard_state) "$@"
    else
        __guard_run "$@"
    fi
}

__guard_state() {
    # What `guard doctor` checks: NAME, a NUL, the value, a NUL.
    emulate -L zsh
    local alive=no
    [[ -n $__guard_pid ]] && kill -0 $__guard_pid 2>/dev/null && alive=yes
    print -rN -- shell zsh hook_version $__guard_hook_version pid $$ session $__guard_session \
        preexec_functions "${preexec_functions[*]}" precmd_functions "${precmd_functions[*]}" \
        checker "$__guard_pid" checker_alive $alive \
        functions "$(functions __guard_preexec __guard_precmd __guard_send __guard_receive \
            __guard_confirm __guard_check_line __guard_accept_line __guard_at_enter \
            __guard_ask_at_enter fc r)"
}

() {
    emulate -L zsh
    typeset -ga preexec_functions precmd_functions
    preexec_functions=(__guard_preexec ${preexec_functions:#__guard_preexec})
    (( ${precmd_functions[(Ie)__guard_precmd]} )) || precmd_functions+=(__guard_precmd)
    # Enter checks the line first (__guard_accept_line); a user's own accept-line widget still
    # runs after it. Loading twice wraps once.
    zmodload zsh/zleparameter 2>/dev/null || return 0
    local current=${widgets[accept-line]-}
    if [[ $current == user:* && $current != user:__guard_accept_line ]]; then
        zle -A accept-line __guard_user_accept_line && typeset -g __guard_next_accept=__guard_user_accept_line
    fi
    [[ $current == user:__guard_accept_line ]] || zle -N accept-line __guard_accept_line
}

fi
