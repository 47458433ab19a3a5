"""benchmarks/README's loading tables, one per bench_load.py record.

``tables(load_record)`` gives tables.py one entry per record of RECORDS (the table is
named after its record, never mixing two): each file and limit,
wordvec against gensim 4.4.0, whole processes, each load run twice in a row ("first",
then "again" right after the same load freed its memory: see bench_load.stage_load for
why the two differ on this machine).  Every row must come from one commit (the load
stage may be measured in several invocations, ``--formats``, each complete per format).
"""

SYSTEMS = (("wordvec", ""), ("wordvec touched", " + dict"))


def _runs(rows, **match):
    """The rows matching ``match``, ordered by run (0: first, 1: again)."""
    found = [row for row in rows if all(row.get(key) == value for key, value in match.items())]
    return sorted(found, key=lambda row: row.get("run", 0))


def _times(runs):
    return " · ".join(f"{row['wall_seconds']:.1f} ({row['cpu_seconds']:.1f})" for row in runs) if runs else "–"


def _ratios(ours, theirs):
    if not ours or not theirs:
        return "–"
    pairs = zip(ours, theirs)
    return " · ".join(f"**{t['wall_seconds'] / o['wall_seconds']:.1f}×**" for o, t in pairs)


def _peak(runs):
    if not runs:
        return "–"
    row = max(runs, key=lambda r: r["peak_rss_mb"])
    return f"{row['peak_rss_mb']:.0f} ({row['peak_rss_mb'] / row['matrix_mb']:.2f})"


def _provenance(rows, name):
    """Where the rows come from; they must all have measured one reader (bench_load.reader_code:
    the committed loading files), whatever else others committed between two invocations."""
    codes = {row.get("reader_code") for row in rows}
    if len(codes) != 1 or None in codes:
        raise ValueError(f"{name}.json: the load rows measured different code {sorted(map(str, codes))}: "
                         "re-measure them at one commit")
    commits = sorted({row["commit"][:7] for row in rows})
    timed = [row for row in rows if not row.get("baseline")]
    loads = [row["load_before"] for row in timed]
    times = sorted(row["when"] for row in timed)
    return (f"`{name}.json`, commit {' and '.join(commits)} (the same loading code, "
            f"{codes.pop()}), runs {times[0][:5]}–{times[-1][:5]} UTC, "
            f"1-min load {min(loads):.1f}–{max(loads):.1f} before each run")


def files_table(record, name):
    rows = record["stages"]["load"]["rows"]
    lines = ["| file | limit | wordvec wall s (CPU): first · again | gensim wall s (CPU): first · again "
             "| speed-up wall: first · again | wordvec peak MB (× matrix) | gensim peak MB (× matrix) |",
             "|---|---|---|---|---|---|---|"]
    for ext in record["files"]:
        for limit in sorted({row["limit"] for row in rows if row.get("format") == ext}, key=lambda x: x or 0):
            theirs = _runs(rows, format=ext, limit=limit, system="gensim")
            for system, suffix in SYSTEMS:
                ours = _runs(rows, format=ext, limit=limit, system=system)
                if ours:
                    lines.append(f"| .{ext}{suffix} | {limit or 'all'} | {_times(ours)} | {_times(theirs)} "
                                 f"| {_ratios(ours, theirs)} | {_peak(ours)} | {_peak(theirs)} |")
    base = {row["system"]: row["peak_rss_mb"] for row in rows if row.get("baseline")}
    return lines + ["", f"Imports alone: wordvec {base['wordvec']:.0f} MB, gensim {base['gensim']:.0f} MB. "
                        f"{_provenance(rows, name)}."]


# load-3000000: the 3M rows of 2026-11-26 (its 3M text rows stand: gensim takes ~12 min a file there);
# load-20261127: every limit=500000 row and the whole binary files
RECORDS = ("load-3000000", "load-20261127", "load-20261127T2322-bin3m", "load-20261127-ctext")


def tables(load_record):
    """{table name: a function giving its lines} (see the module doc)."""
    return {name: (lambda name=name: files_table(load_record(name), name)) for name in RECORDS}
