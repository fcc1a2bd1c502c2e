"""The OpenCode plugin `guard setup opencode` writes: a `tool.execute.before` that asks guard.

OpenCode's `permission.ask` plugin hook does not fire; a `tool.execute.before` that throws
vetoes the call, so that is where guard stands. The plugin runs `guard hook opencode` with the
call as JSON on stdin and lets the call through only on an explicit `{"decision": "allow"}`
with exit status 0; a deny, a crash, a timeout or output it cannot read throws, with guard's
reason.
"""

from __future__ import annotations

import json

TEMPLATE = """\
// guard: written by `guard setup opencode`; `guard setup opencode --uninstall` removes it.
// Before each bash call it asks `guard hook opencode`; anything but an explicit allow (a deny,
// a crash, a timeout, output it cannot read) throws, and OpenCode does not run the call.
import { spawn } from "node:child_process"

const GUARD = @PROGRAM@
const TIMEOUT_SECONDS = @TIMEOUT@
const NOT_RUN = "the command was not run"

function askGuard(payload) {
  return new Promise((resolve, reject) => {
    let child
    try {
      child = spawn(GUARD, ["hook", "opencode", "--timeout", String(TIMEOUT_SECONDS)], {
        stdio: ["pipe", "pipe", "inherit"],
      })
    } catch (err) {
      reject(new Error(`guard: could not start ${GUARD} (${err}); ${NOT_RUN}`))
      return
    }
    let out = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`guard: no answer within ${TIMEOUT_SECONDS} s; ${NOT_RUN}`))
    }, TIMEOUT_SECONDS * 1000)
    child.stdout.on("data", (chunk) => { out += chunk })
    child.on("error", (err) => {
      clearTimeout(timer)
      reject(new Error(`guard: could not start ${GUARD} (${err.message}); ${NOT_RUN}`))
    })
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) {
        const how = signal ? `was killed (${signal})` : `failed (exit status ${code})`
        reject(new Error(`guard: guard's program ${how}; ${NOT_RUN}`))
        return
      }
      let answer = null
      try { answer = JSON.parse(out) } catch (err) { answer = null }
      if (answer !== null && typeof answer === "object" && answer.decision === "allow") {
        resolve()
        return
      }
      const said = answer !== null && typeof answer === "object" ? answer.reason : undefined
      const unreadable = `guard: its answer could not be read; ${NOT_RUN}`
      const reason = typeof said === "string" ? said : unreadable
      reject(new Error(reason))
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

export const GuardPlugin = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash") return
    await askGuard({
      tool: input.tool,
      sessionID: input.sessionID,
      args: output.args,
      directory,
      worktree,
    })
  },
})
"""


def plugin_text(program: str, timeout: int) -> str:
    return TEMPLATE.replace("@PROGRAM@", json.dumps(program)).replace("@TIMEOUT@", str(timeout))
