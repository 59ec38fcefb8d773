"""TAP output for the process-level tests: one "ok"/"not ok" line per check,
the plan at the end, and an exit status that says whether all passed."""

_count = 0
_failed = 0


def check(ok, what, detail="", todo=""):
    """Reports one check; on failure, prints detail (up to 20 lines). A todo
    (the reason) marks a check of work not yet landed: TAP's TODO, which does
    not fail the run while it fails, and shows up once it passes."""
    global _count, _failed
    _count += 1
    if not ok and not todo:
        _failed += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (_count, what) +
          (" # TODO " + todo if todo else ""))
    if not ok and detail:
        for line in str(detail).splitlines()[:20]:
            print("#   " + line)


def done():
    """Prints the plan; returns the exit status (1 if any check failed)."""
    print("1..%d" % _count)
    return 1 if _failed else 0
