#!/usr/bin/env python3
"""bench/merge-shards.py - merge the outputs of `lkmmc --shard K/N` runs
(one per machine or job) into the output of one unsharded run.

  merge-shards.py --times OUT.tsv [--order LIST] SHARD.tsv...
  merge-shards.py --json OUT.jsonl [--order LIST] SHARD.jsonl...

--times merges --times tables (one header, then the rows); --json merges
--json outputs (JSON Lines, docs/json.md).  Rows are sorted by path, or
with --order LIST (the list the shards were given, one path a line, as
--files-from reads it) in the order of the list, as an unsharded run
prints them; then every listed file must be in exactly one shard.  A file
found in two shards, or a listed file in none, is an error (exit 1, said
on stderr): a shard that failed or ran on another list is not merged
silently.  OUT may be - for standard output.  It does not run lkmmc.
"""
import argparse
import json
import sys


def read_times(path):
    """(header, [(file, row)]) of a --times table."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or not lines[0].startswith("path\t"):
        raise ValueError("%s: not a --times table (no header)" % path)
    return lines[0], [(l.split("\t", 1)[0], l) for l in lines[1:] if l]


def read_json(path):
    """(None, [(file, line)]) of a --json output."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            try:
                rows.append((json.loads(line)["file"], line))
            except (ValueError, KeyError) as e:
                raise ValueError("%s:%d: not an lkmmc --json object: %s" % (path, n, e))
    return None, rows


def main(argv):
    ap = argparse.ArgumentParser(description="merge lkmmc --shard outputs")
    kind = ap.add_mutually_exclusive_group(required=True)
    kind.add_argument("--times", metavar="OUT", help="merge --times tables into OUT")
    kind.add_argument("--json", metavar="OUT", help="merge --json outputs into OUT")
    ap.add_argument("--order", metavar="LIST", help="the files in the order of LIST")
    ap.add_argument("shards", nargs="+", help="the shards' outputs")
    a = ap.parse_args(argv[1:])
    reader = read_times if a.times else read_json
    out_path = a.times or a.json
    header, rows, where, errors = None, {}, {}, []
    try:
        for s in a.shards:
            h, rs = reader(s)
            if header is not None and h != header:
                errors.append("%s: another header than %s" % (s, a.shards[0]))
            header = h if header is None else header
            for f, row in rs:
                if f in rows:
                    errors.append("%s: in two shards, %s and %s" % (f, where[f], s))
                    continue
                rows[f], where[f] = row, s
    except (OSError, ValueError) as e:
        print("merge-shards: %s" % e, file=sys.stderr)
        return 1
    if a.order:
        with open(a.order, encoding="utf-8") as f:
            order = [l.rstrip("\r\n") for l in f if l.strip()]
        missing = [f for f in order if f not in rows]
        extra = sorted(set(rows) - set(order))
        errors += ["%s: in no shard" % f for f in missing]
        errors += ["%s: not in the list %s" % (f, a.order) for f in extra]
        order = [f for f in order if f in rows] + extra
    else:
        order = sorted(rows)
    for e in errors:
        print("merge-shards: " + e, file=sys.stderr)
    out = sys.stdout if out_path == "-" else open(out_path, "w", encoding="utf-8")
    if header is not None:
        out.write(header + "\n")
    for f in order:
        out.write(rows[f] + "\n")
    if out is not sys.stdout:
        out.close()
    print("merge-shards: %d files from %d shards%s" %
          (len(rows), len(a.shards), ", %d errors" % len(errors) if errors else ""),
          file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
