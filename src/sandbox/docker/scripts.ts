/**
 * Bash run inside the container by `docker exec`. Every exec process docker starts is the leader
 * of its own session (runc makes it one), so a session id names one exec and all its children.
 * Only bash builtins and /proc are used: task images need bash, nothing else.
 */

/** Marks an exec's leader in its initial environment (unset before the command runs). */
export const EXEC_MARKER = "LONGHAUL_EXEC";

/** argv[0] of the wrapper, shown in `ps` and in bash's own error messages. */
export const WRAPPER_NAME = "longhaul-exec";

/** Kills every process of session $1 but the caller; shared by the wrapper and the killer. */
const KILL_SESSION = `
ks() {
  local d p s
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    [ "$p" = "$$" ] && continue
    read -r s < "$d/stat" 2>/dev/null || continue
    s=\${s##*) }
    set -- $1 $s
    [ "$5" = "$1" ] && kill -9 "$p" 2>/dev/null
  done
}`;

/**
 * Runs "$@" as a child, then kills whatever it left in the exec's session (as bwrap's per-exec
 * pid namespace does) so nothing an exec started outlives it but spawnBackground's processes.
 */
export const WRAPPER = `${KILL_SESSION}
unset ${EXEC_MARKER}
"$@"
rc=$?
ks $$
exit $rc`;

/**
 * Kills the exec whose leader carries ${EXEC_MARKER}=$1, with every process of its session.
 * Exit 0: found (and killed); 3: not found (not started yet, or already gone).
 */
export const KILL_EXEC = `${KILL_SESSION}
want="${EXEC_MARKER}=$1"
found=
for d in /proc/[0-9]*; do
  while IFS= read -r -d '' v; do
    if [ "$v" = "$want" ]; then found=\${d#/proc/}; break; fi
  done < "$d/environ" 2>/dev/null
  [ -n "$found" ] && break
done
[ -z "$found" ] && exit 3
for i in 1 2 3; do kill -9 "$found" 2>/dev/null; ks "$found"; done
exit 0`;

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
