#!/usr/bin/env python3
"""Generates docs/supported.md, the table of what gpumpi supports, from the
code itself, so it cannot drift:

- MPI: every function declared in runtime/include (mpi.h, gpumpi/mpi_*.h),
  with the runtime source file that defines it (or "declared only");
  predefined datatypes and reduction ops.
- C library: per libc-shim/include/*.h.cuh header, the names it provides
  (its `#define name gp_...` renames) and the header's own comment; the
  names made build errors (gpumpi/unprovided.h).
- C language: what the converter refuses (converter/check_unsupported.c:
  its table and its error messages) and what it rewrites (the first
  sentences of each pass's leading comment).

  python3 scripts/gen_supported.py [SRC]           writes SRC/docs/supported.md
  python3 scripts/gen_supported.py --check [SRC]   exit 1 if it is out of date
"""
import os
import re
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def leading_comment(text):
    """The first /* ... */ block, as plain text (one paragraph per blank line)."""
    m = re.search(r"/\*(.*?)\*/", text, flags=re.S)
    if not m:
        return ""
    lines = [re.sub(r"^\s*\*?\s?", "", l) for l in m.group(1).split("\n")]
    paras, cur = [], []
    for l in lines:
        if l.strip():
            cur.append(l.strip())
        elif cur:
            paras.append(" ".join(cur))
            cur = []
    if cur:
        paras.append(" ".join(cur))
    return paras


def first_sentences(paragraph, at_least=60):
    """Whole sentences from the start, at least AT_LEAST characters of them."""
    parts = re.split(r"(?<=\.)\s+(?=[A-Z])", paragraph)
    out = ""
    for p in parts:
        out = (out + " " + p).strip()
        if len(out) >= at_least:
            break
    return out


def mpi_declared(src):
    decl = {}
    inc = os.path.join(src, "runtime", "include")
    files = [os.path.join(inc, "mpi.h")] + sorted(
        os.path.join(inc, "gpumpi", f) for f in os.listdir(os.path.join(inc, "gpumpi")) if f.startswith("mpi_"))
    for path in files:
        text = strip_comments(read(path))
        for m in re.finditer(r"GPUMPI_(?:VARIADIC_)?FN\s+[\w\s\*]*?\b(P?MPI_\w+)\s*\(", text):
            decl.setdefault(m.group(1), os.path.relpath(path, src))
    return decl


def mpi_defined(src):
    """name -> runtime/src file with its definition (a body, not a prototype)."""
    where = {}
    d = os.path.join(src, "runtime", "src")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".cu"):
            continue
        text = strip_comments(read(os.path.join(d, f)))
        for m in re.finditer(r"GPUMPI_(?:VARIADIC_)?FN\s+[\w\s\*]*?\b(MPI_\w+)\s*\(", text):
            i, depth = m.end(), 1
            while i < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            rest = text[i:i + 200].lstrip()
            if rest.startswith("{"):
                where.setdefault(m.group(1), "runtime/src/" + f)
    return where


def predefined(src, kind):
    text = read(os.path.join(src, "runtime", "include", "gpumpi", "mpi_types.h"))
    text += read(os.path.join(src, "runtime", "include", "mpi.h"))
    names = re.findall(r"#define\s+(MPI_\w+)\s+\(\(" + kind + r"\)", text)
    return [n for n in dict.fromkeys(names) if not n.endswith("_NULL")]


def libc_headers(src):
    inc = os.path.join(src, "libc-shim", "include")
    out = []
    for root, _, files in os.walk(inc):
        for f in files:
            if f.endswith(".h.cuh"):
                out.append(os.path.relpath(os.path.join(root, f), inc))
    out.sort()
    rows = []
    for rel in out:
        text = read(os.path.join(inc, rel))
        names = []
        for m in re.finditer(r"^#\s*define\s+([a-z_][a-z0-9_]*)(\([^)]*\))?\s+(\S.*)$", text, flags=re.M):
            name, body = m.group(1), m.group(3)
            if name.startswith("_") or "gp_" not in body:
                continue
            names.append(name)
        paras = leading_comment(text)
        note = paras[0] if paras else ""
        rows.append((rel[:-4], sorted(dict.fromkeys(names)), note))
    return rows


def unprovided(src):
    text = read(os.path.join(src, "libc-shim", "include", "gpumpi", "unprovided.h"))
    return sorted(set(re.findall(r"#define\s+(\w+)\(\.\.\.\)\s+\w+_is_not_provided_by_gpumpi", text)))


def refused(src):
    text = read(os.path.join(src, "converter", "check_unsupported.c"))
    rows = re.findall(r'\{\s*"([\w*]+)",\s*"([^"]+)"\s*\}', text)
    merged = {}
    for name, why in rows:
        merged.setdefault(why, []).append(name)
    out = [(", ".join("`%s`" % n for n in names), why) for why, names in merged.items()]
    # messages raised directly (gp_error_at) or built first (snprintf) and
    # raised by gp_gpu_only_error: those stop the GPU build only
    lit = r'((?:"(?:[^"\\]|\\.)*"\s*)+)'
    calls = [(m.start(), m.group(1), False) for m in re.finditer(r"gp_error_at\s*\([^\"]*?" + lit, text)]
    for m in re.finditer(r"snprintf\s*\(\s*msg\s*,\s*sizeof msg\s*,\s*" + lit, text):
        after = text[m.end():]
        gpu_only = after.find("gp_gpu_only_error") >= 0 and (
            after.find("gp_error_at") < 0 or after.find("gp_gpu_only_error") < after.find("gp_error_at"))
        calls.append((m.start(), m.group(1), gpu_only))
    for _, lits, gpu_only in sorted(calls):
        msg = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', lits))
        if not msg or msg == "%s: %s":
            continue
        msg = msg.replace("'%s'", "NAME").replace("%s", "NAME")
        what, _, why = msg.partition(": ")
        if gpu_only:
            why += " (the GPU build only: the threads backend accepts it)"
        out.append((what, why or what))
    return out


def rewrites(src):
    d = os.path.join(src, "converter")
    rows = []
    for f in sorted(os.listdir(d)):
        if (f.startswith("rewrite_") or f == "hoist_locals.c") and f.endswith(".c"):
            paras = leading_comment(read(os.path.join(d, f)))
            if paras:
                rows.append(("converter/" + f, first_sentences(paras[0])))
    return rows


def generate(src):
    decl = mpi_declared(src)
    defs = mpi_defined(src)
    L = []
    w = L.append
    w("# What gpumpi supports")
    w("")
    w("GENERATED by `scripts/gen_supported.py` from the sources: do not edit; run")
    w("`python3 scripts/gen_supported.py` after changing the runtime, libc-shim or")
    w("converter (the test `docs.supported` fails while this file is out of date).")
    w("")
    w("## MPI")
    w("")
    impl = sorted(n for n in decl if n in defs)
    missing = sorted(n for n in decl if n not in defs)
    w("%d functions declared in `runtime/include/`, %d of them implemented. A function "
      "not listed here is not declared: a program calling it fails to compile." % (len(decl), len(impl)))
    w("")
    byfile = {}
    for n in impl:
        byfile.setdefault(defs[n], []).append(n)
    w("| defined in | functions |")
    w("| --- | --- |")
    for f in sorted(byfile):
        w("| `%s` | %s |" % (f, ", ".join("`%s`" % n for n in byfile[f])))
    if missing:
        w("| declared only (no definition found) | %s |" % ", ".join("`%s`" % n for n in missing))
    w("")
    calls = re.findall(r"^GP_UNSUPPORTED_CALL\((\w+), (MPI_\w+),",
                       read(os.path.join(src, "runtime", "include", "gpumpi", "mpi_unsupported_calls.h")), re.M)
    kinds = {"ONE_SIDED": "one-sided communication", "MPI_IO": "MPI-IO", "DYNAMIC": "dynamic processes"}
    w("Outside gpumpi's scope (`runtime/include/gpumpi/mpi_unsupported_calls.h`): a program containing "
      "these builds, with a warning at each call, and runs; a call that runs ends the job, naming it.")
    w("")
    w("| outside the scope | functions |")
    w("| --- | --- |")
    for k in kinds:
        w("| %s | %s |" % (kinds[k], ", ".join("`%s`" % n for kind, n in calls if kind == k)))
    w("")
    w("Left out on purpose: cancelling a send. `MPI_Cancel` of a send request is accepted and cancels "
      "nothing: the send completes as usual once it is received, and `MPI_Test_cancelled` says false "
      "(MPI-4.0 3.8.4 lets a cancel fail; MPI-4.1 deprecates cancelling sends). Withdrawing a sent message "
      "needs the sender and the receiver to agree on who owns it: an atomic claim on every message's "
      "receive path, a few hundred nanoseconds of the 1.7 us half round trip on the GPU. Cancelling a "
      "receive works.")
    w("")
    dts = predefined(src, "MPI_Datatype")
    ops = predefined(src, "MPI_Op")
    w("Predefined datatypes (%d): %s." % (len(dts), ", ".join("`%s`" % n for n in dts)))
    w("")
    w("Predefined reduction ops (%d): %s." % (len(ops), ", ".join("`%s`" % n for n in ops)))
    w("")
    w("## C library (libc-shim)")
    w("")
    w("Each standard header `<x.h>` of a converted file becomes `libc-shim/include/x.h.cuh`; "
      "the names below are the functions (and function-like macros) it provides on the device. "
      "A header not listed here has no device version: the conversion stops naming it.")
    w("")
    w("| header | provides | the header says |")
    w("| --- | --- | --- |")
    for h, names, note in libc_headers(src):
        provided = ", ".join("`%s`" % n for n in names) if names else "(types, macros, constants)"
        w("| `<%s>` | %s | %s |" % (h, provided, note.replace("|", "\\|")))
    w("")
    un = unprovided(src)
    w("Functions the host's C headers declare but gpumpi does not provide (%d; "
      "`libc-shim/include/gpumpi/unprovided.h`): a call is a build error naming "
      "`NAME_is_not_provided_by_gpumpi`:" % len(un))
    w(", ".join("`%s`" % n for n in un) + ".")
    w("")
    w("## C language")
    w("")
    w("All of C is accepted except what `converter/check_unsupported.c` refuses, with "
      "these messages:")
    w("")
    w("| construct | why, and what to do |")
    w("| --- | --- |")
    for what, why in refused(src):
        w("| %s | %s |" % (what, why))
    w("")
    w("What C allows and CUDA C++ does not is rewritten by the converter's passes:")
    w("")
    w("| pass | what it does |")
    w("| --- | --- |")
    for f, what in rewrites(src):
        w("| `%s` | %s |" % (f, what.replace("|", "\\|")))
    w("")
    return "\n".join(L)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    src = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    out = os.path.join(src, "docs", "supported.md")
    text = generate(src)
    if check:
        old = read(out) if os.path.exists(out) else ""
        if old != text:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                       "docs/supported.md (committed)", "generated"))
            print("docs/supported.md is out of date: run python3 scripts/gen_supported.py")
            return 1
        print("docs/supported.md is up to date")
        return 0
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote " + out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
