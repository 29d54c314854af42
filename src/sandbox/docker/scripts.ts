/**
 * Bash run inside the container by `docker exec`. Every exec process docker starts is the leader
 * of its own session (runc makes it one), so a session id names one exec and all its children.
 * A command may leave that session (setsid), though, so a background process whose abort signal
 * must end all it started gets an audit session of its own: writing /proc/self/loginuid, unset in
 * a container, makes the kernel give the process a fresh /proc/self/sessionid, which every
 * descendant inherits and none can change again without CAP_AUDIT_CONTROL (dropped with every
 * other capability). Clearing the environment, setsid, a double fork or killing the wrapper keep
 * it. Its limit: the kernel must have audit, and docker's processes must start with no loginuid
 * (a dockerd started from a login session has one, and the write fails); there only the Unix
 * session is left, which setsid escapes. Execs keep to their Unix session: a daemon an exec starts
 * with setsid outlives it, as docs/sandbox.md says.
 * Only bash builtins and /proc are used (and sleep, as pid 1 does): task images need bash.
 */

/** Marks an exec's leader in its initial environment (unset before the command runs). */
export const EXEC_MARKER = "LONGHAUL_EXEC";

/**
 * Set (to 1) for a background process whose abort signal must find it: its wrapper opens an audit
 * session and waits for SIGUSR1 before running the command, so the provider reads the audit
 * session first (HOLD_RELEASE) and the command cannot hide it by killing the wrapper.
 */
export const HOLD_MARKER = "LONGHAUL_EXEC_HOLD";

/** argv[0] of the wrapper, shown in `ps` and in bash's own error messages. */
export const WRAPPER_NAME = "longhaul-exec";

/**
 * Kills every process but the caller in Unix session $1 or audit session $2 (either may be
 * empty), round after round until a round finds none (a forking process is killed again).
 * Shared by the wrapper and the killer.
 */
const KILL_SESSION = `
ks() {
  local d p s a n r
  for r in 1 2 3 4 5 6 7 8 9 10; do
    n=0
    for d in /proc/[0-9]*; do
      p=\${d#/proc/}
      [ "$p" = "$$" ] && continue
      read -r s < "$d/stat" 2>/dev/null || continue
      s=\${s##*) }
      set -- "$1" "$2" $s
      [ "$3" = Z ] && continue
      a=
      [ -n "$2" ] && { read -r a < "$d/sessionid"; } 2>/dev/null
      if [ "$6" = "$1" ] || { [ -n "$2" ] && [ "$a" = "$2" ]; }; then
        kill -9 "$p" 2>/dev/null && n=$((n + 1))
      fi
    done
    [ "$n" = 0 ] && return 0
  done
}`;

/** Prints the audit session of /proc/$1 when it has one of its own (not the caller's). */
const AUDIT_OF = `
aof() {
  local a= b=
  # The file has no newline: read fails at its end, having read it.
  { read -r a < "/proc/$1/sessionid"; read -r b < /proc/self/sessionid; } 2>/dev/null
  [ -n "$a" ] && [ "$a" != "$b" ] && [ "$a" != 4294967295 ] && echo "$a"
  return 0
}`;

/**
 * Runs "$@" as a child, then kills whatever it left in the exec's session (as bwrap's per-exec
 * pid namespace does) so nothing an exec started outlives it but spawnBackground's processes.
 */
export const WRAPPER = `${KILL_SESSION}
unset ${EXEC_MARKER}
if [ -n "\${${HOLD_MARKER}-}" ]; then
  unset ${HOLD_MARKER}
  { echo "$UID" > /proc/self/loginuid; } 2>/dev/null
  go=
  trap 'go=1' USR1
  # Up to 5 min (the host's HOLD_RELEASE gives up after 10 s and then kills this wrapper): a
  # loaded host may start that release late, and a wrapper that stopped waiting first would
  # take its SIGUSR1 with the trap gone and die. Arithmetic, not seq: images need only bash.
  for ((i = 0; i < 6000; i++)); do
    [ -n "$go" ] && break
    sleep 0.05 & wait $!
  done
  trap - USR1
  [ -z "$go" ] && exit 125
fi
"$@"
rc=$?
ks $$
exit $rc`;

/**
 * Finds the leader whose initial environment carries ${EXEC_MARKER}=$1: sets $found. Only a
 * session leader counts: a child the wrapper forked (its "sleep 0.05 &" while held) shows the
 * same environment, and its parent's signal handlers, until it execs; taken for the leader, it
 * would get HOLD_RELEASE's SIGUSR1 and the held command would never run.
 */
const FIND_LEADER = `
want="${EXEC_MARKER}=$1"
found=
for d in /proc/[0-9]*; do
  while IFS= read -r -d '' v; do
    if [ "$v" = "$want" ]; then found=\${d#/proc/}; break; fi
  done 2>/dev/null < "$d/environ"
  if [ -n "$found" ]; then
    st=
    read -r st < "$d/stat" 2>/dev/null
    f=(\${st##*) })
    [ "\${f[3]-}" = "$found" ] && break
    found=
  fi
done`;

/**
 * Kills the exec whose leader carries ${EXEC_MARKER}=$1, with every process of its session; $2,
 * when given, is a held background process's audit session (HOLD_RELEASE): its processes die too,
 * even once the leader is gone. Exit 0: found (and killed); 3: not found (not started yet, or
 * already gone).
 */
export const KILL_EXEC = `${KILL_SESSION}${FIND_LEADER}
aid=\${2-}
[ -z "$found" ] && [ -z "$aid" ] && exit 3
[ -n "$found" ] && kill -9 "$found" 2>/dev/null
ks "$found" "$aid"
exit 0`;

/**
 * Lets a held background process (${HOLD_MARKER}) run once its wrapper is ready (it catches
 * SIGUSR1, after its loginuid write), printing its audit session (empty: it has none).
 * Exit 3: no such wrapper showed up within 10 s.
 */
export const HOLD_RELEASE = `${AUDIT_OF}
for ((t = 0; t < 200; t++)); do
  ${FIND_LEADER}
  if [ -n "$found" ]; then
    cgt=
    while read -r k v; do [ "$k" = SigCgt: ] && cgt=$v; done < "/proc/$found/status" 2>/dev/null
    if [ -n "$cgt" ] && [ $((16#$cgt & 0x200)) != 0 ]; then
      aof "$found"
      kill -USR1 "$found" && exit 0
    fi
  fi
  sleep 0.05
done
exit 3`;

/** argv of pid 1: sleeps forever, restarting the sleep when killAll kills it, and reaps orphans. */
export const KEEP_ALIVE = ["bash", "-c", "while :; do sleep 86400.25 & wait $!; done"];

/**
 * Kills every process the caller may signal (kill -1 spares the caller and pid 1) until none is
 * left but pid 1 and its keep-alive sleep. Exit 0: all gone; 1: some survive (another uid's).
 */
export const KILL_ALL = `
for round in $(seq 1 40 2>/dev/null || echo 1 2 3 4 5 6 7 8 9 10); do
  kill -9 -1 2>/dev/null
  left=0
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    [ "$p" = "$$" ] || [ "$p" = 1 ] && continue
    read -r s < "$d/stat" 2>/dev/null || continue
    c=\${s#*(}; c=\${c%%)*}; r=\${s##*) }; set -- $r
    [ "$2" = 1 ] && [ "$c" = sleep ] && continue
    [ "$1" = Z ] && continue
    left=$((left + 1))
  done
  [ "$left" = 0 ] && exit 0
  sleep 0.05
done
exit 1`;
