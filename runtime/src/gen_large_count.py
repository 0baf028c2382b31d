#!/usr/bin/env python3
"""Generates the MPI-4.0 large-count (_c) bindings of point to point and
collective calls from the int functions' own declarations, so the two
cannot drift:

  runtime/include/gpumpi/mpi_large_count.h   every _c declaration (these and
                                              the hand-written ones below)
  runtime/src/large_count_calls.cu            the generated wrappers

Each wrapper narrows its counts (MPI_Count) and displacement arrays
(MPI_Aint) to ints and calls the int function (large_count.h says why).
Run it after changing a declaration it reads:
  python3 runtime/src/gen_large_count.py          writes both files
  python3 runtime/src/gen_large_count.py --check  exit 1 if either is out of date (CTest large_count.generated)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADERS = ["runtime/include/mpi.h", "runtime/include/gpumpi/mpi_coll.h", "runtime/include/gpumpi/mpi_comm.h"]

P2P = ["Send", "Recv", "Ssend", "Rsend", "Bsend", "Isend", "Issend", "Irsend", "Ibsend", "Irecv",
       "Send_init", "Ssend_init", "Bsend_init", "Rsend_init", "Recv_init", "Sendrecv", "Sendrecv_replace",
       "Isendrecv", "Isendrecv_replace", "Mrecv", "Imrecv", "Psend_init", "Precv_init"]
COLL = ["Bcast", "Reduce", "Allreduce", "Reduce_local", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather",
        "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw", "Reduce_scatter", "Reduce_scatter_block", "Scan",
        "Exscan", "Neighbor_allgather", "Neighbor_allgatherv", "Neighbor_alltoall", "Neighbor_alltoallv",
        "Neighbor_alltoallw"]

# How many entries each array argument has (large_count.h's GP_LC_*), by
# collective; a send side's arrays are not read when sendbuf is MPI_IN_PLACE.
ARRAYS = {
    "Gatherv": {"recvcounts": "ROOT", "displs": "ROOT"},
    "Scatterv": {"sendcounts": "ROOT", "displs": "ROOT"},
    "Allgatherv": {"recvcounts": "GROUP", "displs": "GROUP"},
    "Alltoallv": {"sendcounts": "GROUP", "sdispls": "GROUP", "recvcounts": "GROUP", "rdispls": "GROUP"},
    "Alltoallw": {"sendcounts": "GROUP", "sdispls": "GROUP", "recvcounts": "GROUP", "rdispls": "GROUP"},
    "Reduce_scatter": {"recvcounts": "LOCAL"},
    "Neighbor_allgatherv": {"recvcounts": "IN", "displs": "IN"},
    "Neighbor_alltoallv": {"sendcounts": "OUT", "sdispls": "OUT", "recvcounts": "IN", "rdispls": "IN"},
    "Neighbor_alltoallw": {"sendcounts": "OUT", "recvcounts": "IN"},
}
SCALAR_COUNTS = {"count", "sendcount", "recvcount"}

# The rest, written by hand (large_count_types.cu, types_derived.cu,
# types_envelope.cu, ops_user.cu): their int twins differ by more than
# narrowing, or they must take counts past INT_MAX.
HAND = """\
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);
GPUMPI_FN int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
GPUMPI_FN int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
GPUMPI_FN int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
GPUMPI_FN int MPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
GPUMPI_FN int MPI_Buffer_attach_c(void *buffer, MPI_Count size);
GPUMPI_FN int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
GPUMPI_FN int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                        MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                 const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                         const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                         MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                              const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                              MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                               MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                       const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                                       MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                         const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                         int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                       const int array_of_distribs[], const int array_of_dargs[],
                                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype);
GPUMPI_FN int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
GPUMPI_FN int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
GPUMPI_FN int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
GPUMPI_FN int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                      MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner);
GPUMPI_FN int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                      MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                                      MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                      MPI_Datatype array_of_datatypes[]);
GPUMPI_FN int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                         MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
GPUMPI_FN int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                           MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
GPUMPI_FN int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size);
GPUMPI_FN int MPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                                  MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position);
GPUMPI_FN int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                                    MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype);
GPUMPI_FN int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                                       MPI_Count *size);
"""


def declarations():
    text = ""
    for h in HEADERS:
        with open(os.path.join(ROOT, h), encoding="utf-8") as f:
            text += re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    decls = {}
    for m in re.finditer(r"GPUMPI_FN\s+int\s+MPI_(\w+)\s*\(([^;]*?)\)\s*;", text):
        params = [" ".join(p.split()) for p in m.group(2).split(",")]
        decls[m.group(1)] = params
    return decls


def split_param(p):
    m = re.match(r"(.*?)(\w+)(\[\])?$", p)
    return m.group(1).strip(), m.group(2), bool(m.group(3))


def base_of(name):
    b = name[:-len("_init")] if name.endswith("_init") else name
    if b.startswith("I") and b[1].upper() + b[2:] in COLL:
        b = b[1].upper() + b[2:]
    return b


def wrap(head, items, tail, indent=0, width=118):
    """head(items, ...)tail, broken before an item that would pass width,
    continuation lines aligned after the parenthesis."""
    lines, cur = [], " " * indent + head + "("
    pad = " " * len(cur)
    for k, it in enumerate(items):
        piece = it + (", " if k < len(items) - 1 else ")" + tail)
        if len(cur) + len(piece.rstrip()) > width and cur.strip() != (head + "(").strip():
            lines.append(cur.rstrip())
            cur = pad
        cur += piece
    lines.append(cur)
    return "\n".join(lines)


def wrapper(name, params):
    """(declaration, definition) of MPI_<name>_c."""
    base = base_of(name)
    arrays = ARRAYS.get(base, {})
    names = [split_param(p)[1] for p in params]
    comm = "comm" if "comm" in names else "MPI_COMM_WORLD"
    cparams, args, scalars, arrs = [], [], [], []
    for p in params:
        ty, nm, is_arr = split_param(p)
        if not is_arr and ty == "int" and nm in SCALAR_COUNTS:
            cparams.append("MPI_Count " + nm)
            scalars.append(nm)
            args.append(nm + "_i")
        elif is_arr and nm in arrays:
            wide = "MPI_Count" if nm.endswith("counts") else "MPI_Aint"
            narrowed = ty == "const int"
            cparams.append("const %s %s[]" % (wide, nm))
            if narrowed:
                arrs.append((nm, wide, arrays[nm]))
                args.append(nm + "_i")
            else:
                args.append(nm)
        else:
            cparams.append(p)
            args.append(nm)
    fn = "MPI_%s_c" % name
    decl = wrap("GPUMPI_FN int " + fn, cparams, ";")
    body = [wrap("GPUMPI_FN int " + fn, cparams, ""), "{"]
    for s in scalars:
        body.append("    int %s_i;" % s)
        body.append('    GP_TRY(gp_lc_int("%s", %s, "%s", %s, &%s_i));' % (fn, comm, s, s, s))
    if not arrs:
        body.append(wrap("return MPI_" + name, args, ";", indent=4))
        body.append("}")
        return decl, "\n".join(body)
    body.append('    gp_lc lc = {"%s", %s, 0, 0, 0};' % (fn, comm))
    root = "root" if "root" in names else "0"
    for nm, wide, kind in arrs:
        skip = "sendbuf == MPI_IN_PLACE" if nm.startswith("send") or nm == "sdispls" else "0"
        body.append("    int n_%s;" % nm)
        body.append("    GP_TRY(gp_lc_len(&lc, GP_LC_%s, %s, %s, &n_%s));" % (kind, root, skip, nm))
    body.append("    GP_TRY(gp_lc_alloc(&lc, %s));" % " + ".join("n_" + a[0] for a in arrs))
    body.append("    const int %s;" % ", ".join("*%s_i" % a[0] for a in arrs))
    for k, (nm, wide, kind) in enumerate(arrs):
        f = "gp_lc_counts" if wide == "MPI_Count" else "gp_lc_displs"
        body.append('    %s%s(&lc, "%s", %s, n_%s, &%s_i);'
                    % ("int rc = " if k == 0 else "if (rc == MPI_SUCCESS) rc = ", f, nm, nm, nm, nm))
    body.append(wrap("if (rc == MPI_SUCCESS) rc = MPI_" + name, args, ";", indent=4))
    body.append("    return gp_lc_done(&lc, rc, %s);" % ("request" if "request" in names else "0"))
    body.append("}")
    return decl, "\n".join(body)


def main():
    decls = declarations()
    wanted = list(P2P)
    for b in COLL:
        for n in (b, "I" + b[0].lower() + b[1:], b + "_init"):
            if n in decls:
                wanted.append(n)
    out_h, out_c = [], []
    for n in wanted:
        d, c = wrapper(n, decls[n])
        out_h.append(d)
        out_c.append(c)
    head = "/* Generated by runtime/src/gen_large_count.py: do not edit. */\n"
    files = {
        "runtime/include/gpumpi/mpi_large_count.h":
            head + "/* MPI-4.0 large-count (_c) bindings (part of mpi.h): MPI_Count counts, MPI_Aint\n"
            " * displacements. Counts past INT_MAX are MPI_ERR_COUNT, except in the datatype\n"
            " * constructors and queries. */\n"
            "#ifndef GPUMPI_MPI_LARGE_COUNT_H\n#define GPUMPI_MPI_LARGE_COUNT_H\n\n"
            + "\n".join(out_h) + "\n\n" + HAND + "\n#endif\n",
        "runtime/src/large_count_calls.cu":
            head + "/* Point-to-point and collective _c bindings: each narrows its arguments and calls\n"
            " * its int twin (large_count.h). */\n"
            '#include "large_count.h"\n\n' + "\n\n".join(out_c) + "\n",
    }
    stale = []
    for rel, text in files.items():
        path = os.path.join(ROOT, rel)
        if "--check" in sys.argv[1:]:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(rel)
            except OSError:
                stale.append(rel)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        sys.exit("out of date (run python3 runtime/src/gen_large_count.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
