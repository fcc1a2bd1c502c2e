# guard's hook for fish: each line typed at the prompt is checked before fish runs any of it.
#   guard init fish | source      # in ~/.config/fish/config.fish
# Enter (and every key that runs the line) is bound to __guard_enter, which asks guard about the
# whole line and runs it only when guard allowed; a line that reaches fish another way is caught
# at fish_preexec, where fish cannot be stopped from running it: the shell exits instead.
set -g __guard_bin guard
if status is-interactive; and not functions -q __guard_enter
    if not set -q __guard_session
        if set -q GUARD_SESSION
            set -g __guard_session $GUARD_SESSION
        else
            set -g __guard_session shell-$fish_pid-(date +%s)-(random)
        end
    end
    set -g __guard_ok

    function __guard_enter --description 'guard: check the line, then run it'
        if commandline --paging-mode
            commandline -f execute # takes the completion the pager shows; runs nothing
            return
        end
        set -l line (commandline | string collect)
        commandline --is-valid
        if test $status -eq 2 # incomplete: fish goes on to the next line; nothing runs
            commandline -f execute
            return
        end
        if test -z (string trim -- "$line")
            set -g __guard_ok $line
            commandline -f execute
            return
        end
        $__guard_bin check --shell fish --session $__guard_session --cwd $PWD -- $line
        if test $status -eq 0
            set -g __guard_ok $line
            commandline -f execute
        else
            commandline -r ''
            commandline -f repaint
        end
    end

    function __guard_bind --description 'guard: every key that runs the line checks it first'
        for mode in default insert
            for keys in \r \n \e\[27\;5\;13~ \e\[13\;5u \e\[27\;2\;13~ \e\[13\;2u
                bind -M $mode $keys __guard_enter
            end
        end
    end

    function __guard_preexec --on-event fish_preexec
        if test "$argv[1]" = "$__guard_ok"
            set -g __guard_ok
            return
        end
        echo 'guard: this line reached fish without being checked (by a key guard does not hook); fish exits rather than run it' >&2
        kill -KILL $fish_pid
    end

    function __guard_rebind --on-event fish_prompt --on-variable fish_key_bindings
        __guard_bind # a change of key bindings (fish_vi_key_bindings …) drops guard's
    end
    __guard_bind
end
