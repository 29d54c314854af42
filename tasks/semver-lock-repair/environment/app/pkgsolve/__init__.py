"""pkgsolve: version ranges, a registry index, a backtracking resolver, lockfiles and their audit."""
